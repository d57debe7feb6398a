"""The seccomp program decides as intended on both architectures, aarch64 included.

The sandbox tests run the filter on this machine's architecture only; here a small classic-BPF
interpreter runs the very bytes the kernel gets on a struct seccomp_data of each architecture,
so the other architecture's numbers and every jump are checked as well.
"""

from __future__ import annotations

import errno
import struct

import pytest

from graders.code.sandbox.inside import seccomp

CODE = {machine: [struct.unpack("=HBBI", seccomp.packed(machine)[i:i + 8])
                   for i in range(0, len(seccomp.packed(machine)), 8)]
        for machine in ("x86_64", "aarch64")}
ALLOW, KILL = seccomp.RET_ALLOW, seccomp.RET_KILL_PROCESS
X86, ARM = seccomp.AUDIT_ARCH_X86_64, seccomp.AUDIT_ARCH_AARCH64


def run(machine: str, arch: int, number: int, *args: int) -> int:
    """Execute `machine`'s packed filter on one syscall of `arch`; the action it returns."""
    data = struct.pack("<IIQ6Q", number, arch, 0, *(list(args) + [0] * (6 - len(args))))
    code = CODE[machine]
    accumulator, pc = 0, 0
    while True:
        op, jt, jf, k = code[pc]
        if op == seccomp.LD_W_ABS:
            accumulator = struct.unpack_from("<I", data, k)[0]
        elif op == seccomp.RET_K:
            return k
        elif op == seccomp.JMP_JA:
            pc += k
        else:
            taken = {seccomp.JMP_JEQ: accumulator == k, seccomp.JMP_JGE: accumulator >= k,
                     seccomp.JMP_JSET: bool(accumulator & k)}[op]
            pc += jt if taken else jf
        pc += 1


def refused(code: int) -> int:
    return seccomp.RET_ERRNO | code


# (x86_64 number, aarch64 number, arguments, expected action)
CASES = {
    "read": (0, 63, [3, 0, 10], ALLOW),
    "write": (1, 64, [1, 0, 10], ALLOW),
    "mmap": (9, 222, [0, 4096, 3, 0x22], ALLOW),
    "futex": (202, 98, [0, 0, 0], ALLOW),
    "clone, a thread": (56, 220, [0x3D0F00], ALLOW),
    "clone, fork": (56, 220, [17], ALLOW),
    "clone, new user namespace": (56, 220, [0x10000000 | 17], refused(errno.EPERM)),
    "clone, new cgroup namespace": (56, 220, [0x02000000 | 17], refused(errno.EPERM)),
    "clone3": (435, 435, [0, 88], refused(errno.ENOSYS)),
    "unshare": (272, 97, [0x20000], refused(errno.EPERM)),
    "setns": (308, 268, [3, 0], refused(errno.EPERM)),
    "mount": (165, 40, [], refused(errno.EPERM)),
    "fsopen": (430, 430, [], refused(errno.EPERM)),
    "add_key": (248, 217, [], refused(errno.EPERM)),
    "keyctl": (250, 219, [], refused(errno.EPERM)),
    "io_uring_setup": (425, 425, [], refused(errno.EPERM)),
    "ptrace": (101, 117, [], refused(errno.EPERM)),
    "bpf": (321, 280, [], refused(errno.EPERM)),
    "perf_event_open": (298, 241, [], refused(errno.EPERM)),
    "fadvise": (221, 223, [3, 0, 0, 4], refused(errno.EPERM)),
    "cachestat": (451, 451, [], refused(errno.EPERM)),
    "madvise, dontneed": (28, 233, [0, 4096, 4], ALLOW),
    "madvise, hugepage": (28, 233, [0, 4096, 14], ALLOW),
    "madvise, cold": (28, 233, [0, 4096, 20], refused(errno.EPERM)),
    "madvise, pageout": (28, 233, [0, 4096, 21], refused(errno.EPERM)),
    "preadv2, plain": (327, 286, [3, 0, 1, 0, 0, 0], ALLOW),
    "preadv2, nowait": (327, 286, [3, 0, 1, 0, 0, 8], refused(errno.EPERM)),
    "personality, query": (135, 92, [0xFFFFFFFF], ALLOW),
    "personality, linux": (135, 92, [0], ALLOW),
    "personality, no aslr": (135, 92, [0x0040000], refused(errno.EPERM)),
    "memfd_create": (319, 279, [], refused(errno.EPERM)),
    "file_setattr (Linux 6.17)": (469, 469, [], ALLOW),
    "a call newer than the table": (470, 470, [], refused(errno.ENOSYS)),
    "a much newer call": (600, 600, [], refused(errno.ENOSYS)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_architecture_decides_by_its_own_numbers(case: str) -> None:
    x86, arm, args, expected = CASES[case]
    assert run("x86_64", X86, x86, *args) == expected
    assert run("aarch64", ARM, arm, *args) == expected


@pytest.mark.parametrize("arch", [0x40000003, 0x40000028, 0xC00000F3, 0])  # i386, arm, riscv64
def test_a_foreign_architecture_is_killed(arch: int) -> None:
    assert run("x86_64", arch, 0) == KILL
    assert run("aarch64", arch, 0) == KILL


def test_each_machine_kills_the_other_ones_calls() -> None:
    assert run("x86_64", ARM, 63) == KILL
    assert run("aarch64", X86, 0) == KILL


def test_x32_calls_are_killed() -> None:
    assert run("x86_64", X86, 0x40000000 | 39) == KILL
    assert run("x86_64", X86, 0xFFFFFFFF) == KILL


def test_the_program_stays_short() -> None:
    # the kernel checks and compiles it once per job: about a hundred instructions
    assert max(len(code) for code in CODE.values()) < 150
