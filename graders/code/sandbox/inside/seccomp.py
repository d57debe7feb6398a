"""A seccomp filter for the sample's process tree: the syscalls a graded program never needs.

Stdlib only (ctypes and struct); loaded by path inside the fork server. A deny-list, not an
allow-list: HumanEval and MBPP programs, the interpreter and numpy (which starts threads) use a
wide and version-dependent set of syscalls, and one missing from an allow-list would turn an
honest sample's pass into an error. What is refused is what reaches outside the job or keeps
state after it: new namespaces (a nested user namespace gives mount rights, an uncounted tmpfs
and the slot's cgroup counters), mounts, keyrings (kernel objects outside every namespace),
io_uring and Linux AIO, tracing and other processes' memory, BPF, perf, userfaultfd, kernel
modules and kexec, personality changes, and everything that evicts or reports page-cache
residency of the shared read-only root (fadvise, readahead, mincore, cachestat, madvise
COLD/PAGEOUT, RWF_NOWAIT reads), plus memfds, whose memory no per-process count sees.

What no filter takes away: reading a file caches it, so a job can still warm a file of the root
that was cold, and the next job can time a first read of it (one bit per cold file, set until
the host's own reclaim drops the page again); a lookup of a missing name leaves a negative
dentry likewise. Once the host never reacts to an output while a job runs (issue 29 item 1), a
job has learnt nothing its copies do not already hold, so there is nothing to carry.

The program is built by hand rather than through libseccomp: its Python binding is not in the
standard library the sandbox exposes, and a hand-built program is about a hundred
instructions whose every decision the tests check. It is built for the machine's own
architecture (x86_64 or aarch64, each with its own numbers) and checks it first: a call of any
other architecture (i386 through int 0x80, 32-bit ARM) or ABI (x32) kills the process.
Refusals return EPERM (clone3 ENOSYS, so the C library falls back to clone, whose flags can be
checked); calls newer than the table get ENOSYS, so a new kernel's new calls are refused until
someone has looked at them.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import struct

AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
X32_SYSCALL_BIT = 0x40000000
RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000
# classic BPF opcodes
LD_W_ABS, JMP_JA, JMP_JEQ, JMP_JGE, JMP_JSET, RET_K = 0x20, 0x05, 0x15, 0x35, 0x45, 0x06
NR_OFFSET, ARCH_OFFSET = 0, 4


def _arg_low(index: int) -> int:
    """Offset of the low 32 bits of argument `index` in struct seccomp_data (little-endian)."""
    return 16 + 8 * index


# the first syscall number after Linux 6.18's last (file_setattr, 469); numbers from 424 on are
# the same on every architecture
NEWER_THAN_TABLE = 470
# namespace flags of clone(2) (CLONE_NEWTIME shares its bit with the exit signal there)
CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 \
    | 0x20000000 | 0x40000000
MADV_COLD, MADV_PAGEOUT = 20, 21
RWF_NOWAIT = 0x8
PERSONALITY_QUERY, PER_LINUX = 0xFFFFFFFF, 0

# name -> (x86_64 number, aarch64 number); None where the architecture has no such call
SYSCALLS: dict[str, tuple[int | None, int | None]] = {
    "unshare": (272, 97), "setns": (308, 268), "clone": (56, 220), "clone3": (435, 435),
    "mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41), "chroot": (161, 51),
    "open_tree": (428, 428), "move_mount": (429, 429), "fsopen": (430, 430),
    "fsconfig": (431, 431), "fsmount": (432, 432), "fspick": (433, 433),
    "mount_setattr": (442, 442), "statmount": (457, 457), "listmount": (458, 458),
    "open_tree_attr": (467, 467),
    "add_key": (248, 217), "request_key": (249, 218), "keyctl": (250, 219),
    "io_uring_setup": (425, 425), "io_uring_enter": (426, 426),
    "io_uring_register": (427, 427), "io_setup": (206, 0), "io_destroy": (207, 1),
    "io_submit": (209, 2), "io_cancel": (210, 3), "io_getevents": (208, 4),
    "io_pgetevents": (333, 292),
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "process_vm_writev": (311, 271),
    "process_madvise": (440, 440), "process_mrelease": (448, 448), "kcmp": (312, 272),
    "pidfd_getfd": (438, 438),
    "bpf": (321, 280), "perf_event_open": (298, 241), "userfaultfd": (323, 282),
    "kexec_load": (246, 104), "kexec_file_load": (320, 294), "init_module": (175, 105),
    "finit_module": (313, 273), "delete_module": (176, 106), "personality": (135, 92),
    "fadvise64": (221, 223), "readahead": (187, 213), "mincore": (27, 232),
    "cachestat": (451, 451), "madvise": (28, 233), "preadv2": (327, 286),
    "pwritev2": (328, 287), "memfd_create": (319, 279), "memfd_secret": (447, 447),
    "syslog": (103, 116), "acct": (163, 89), "quotactl": (179, 60), "quotactl_fd": (443, 443),
    "swapon": (167, 224), "swapoff": (168, 225), "reboot": (169, 142),
    "open_by_handle_at": (304, 265), "name_to_handle_at": (303, 264),
    "fanotify_init": (300, 262), "lookup_dcookie": (212, 18), "vhangup": (153, 58),
    "uselib": (134, None), "ustat": (136, None), "sysfs": (139, None), "_sysctl": (156, None),
    "iopl": (172, None), "ioperm": (173, None), "create_module": (174, None),
    "get_kernel_syms": (177, None), "query_module": (178, None), "nfsservctl": (180, 42),
    "settimeofday": (164, 170), "clock_settime": (227, 112), "clock_adjtime": (305, 266),
    "adjtimex": (159, 171), "sethostname": (170, 161), "setdomainname": (171, 162),
    "mbind": (237, 235), "set_mempolicy": (238, 237), "migrate_pages": (256, 238),
    "move_pages": (279, 239), "set_mempolicy_home_node": (450, 450),
}

# refused whatever their arguments (name -> errno)
DENIED: dict[str, int] = {name: errno.EPERM for name in SYSCALLS
                          if name not in ("clone", "clone3", "madvise", "preadv2", "pwritev2",
                                          "personality")}
DENIED["clone3"] = errno.ENOSYS  # its flags sit in memory the filter cannot read
# refused when the low 32 bits of one argument match: name -> (argument, "set" mask | "in" values)
ARGUMENT_RULES: dict[str, tuple[int, str, tuple[int, ...]]] = {
    "clone": (0, "set", (CLONE_NAMESPACES,)),
    "madvise": (2, "in", (MADV_COLD, MADV_PAGEOUT)),
    "preadv2": (5, "set", (RWF_NOWAIT,)),
    "pwritev2": (5, "set", (RWF_NOWAIT,)),
    "personality": (0, "not in", (PERSONALITY_QUERY, PER_LINUX)),
}


def _stmt(code: int, k: int) -> tuple[int, int, int, int]:
    return (code, 0, 0, k)


def _jump(code: int, k: int, jt: int, jf: int) -> tuple[int, int, int, int]:
    if not (0 <= jt <= 255 and 0 <= jf <= 255):
        raise ValueError("a conditional jump past 255 instructions")
    return (code, jt, jf, k)


def _argument_rule(number: int, name: str) -> list[tuple[int, int, int, int]]:
    """Instructions that refuse `name` by one argument (the accumulator holds the syscall
    number, and still does after them when the call is let through)."""
    argument, test, values = ARGUMENT_RULES[name]
    refuse = _stmt(RET_K, RET_ERRNO | errno.EPERM)
    checks: list[tuple[int, int, int, int]] = []
    if test == "set":
        checks = [_jump(JMP_JSET, values[0], 0, 1), refuse]
    elif test == "in":  # each match jumps to the refusal after the last test
        last = len(values) - 1
        checks = [_jump(JMP_JEQ, value, last - position, 0 if position < last else 1)
                  for position, value in enumerate(values)]
        checks.append(refuse)
    else:  # "not in": let the listed values through, refuse the rest
        for position, value in enumerate(values):
            checks.append(_jump(JMP_JEQ, value, len(values) - position, 0))
        checks.append(refuse)
    body = [_stmt(LD_W_ABS, _arg_low(argument)), *checks, _stmt(LD_W_ABS, NR_OFFSET)]
    return [_jump(JMP_JEQ, number, 0, len(body)), *body]


def _denials(numbers: list[int], code: int) -> list[tuple[int, int, int, int]]:
    """One test per number, all jumping to one shared refusal (in runs short enough for a
    conditional jump's 8-bit offset)."""
    out: list[tuple[int, int, int, int]] = []
    for first in range(0, len(numbers), 200):
        run = numbers[first:first + 200]
        out += [_jump(JMP_JEQ, number, len(run) - position, 0)
                for position, number in enumerate(run)]
        out += [_stmt(JMP_JA, 1), _stmt(RET_K, RET_ERRNO | code)]
    return out


ARCH_OF = {"x86_64": (0, AUDIT_ARCH_X86_64), "aarch64": (1, AUDIT_ARCH_AARCH64)}


def program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter for `machine`: a call of any other architecture (i386 through int 0x80 on
    x86_64, 32-bit ARM on aarch64) or ABI (x32) kills the process; then the rules."""
    column, arch = ARCH_OF[machine]
    code = [_stmt(LD_W_ABS, ARCH_OFFSET), _jump(JMP_JEQ, arch, 1, 0),
            _stmt(RET_K, RET_KILL_PROCESS), _stmt(LD_W_ABS, NR_OFFSET)]
    if machine == "x86_64":  # x32 calls arrive as x86_64 with this bit set
        code += [_jump(JMP_JGE, X32_SYSCALL_BIT, 0, 1), _stmt(RET_K, RET_KILL_PROCESS)]
    # calls newer than this table: ENOSYS, as on an older kernel (the C library falls back)
    code += [_jump(JMP_JGE, NEWER_THAN_TABLE, 0, 1), _stmt(RET_K, RET_ERRNO | errno.ENOSYS)]
    for name in ARGUMENT_RULES:
        number = SYSCALLS[name][column]
        assert number is not None, name
        code += _argument_rule(number, name)
    for refusal in sorted(set(DENIED.values())):
        numbers = [SYSCALLS[name][column] for name, errno_ in DENIED.items() if errno_ == refusal]
        code += _denials([number for number in numbers if number is not None], refusal)
    return [*code, _stmt(RET_K, RET_ALLOW)]


@functools.lru_cache(maxsize=2)
def packed(machine: str) -> bytes:
    """The program as the kernel reads it: struct sock_filter[] (u16 code, u8 jt, u8 jf, u32 k)."""
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program(machine))


ARCHES = {"x86_64": 317, "aarch64": 277}  # machine -> number of seccomp(2)
SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_TSYNC = 1


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def unsupported() -> str | None:
    """Why this machine gets no filter (None: it does)."""
    machine = os.uname().machine
    return None if machine in ARCHES else f"no syscall table for {machine}"


class Filter:
    """The program and the call that installs it, made ready in the fork server before it
    forks any job, so that a job's own work is the one system call."""

    def __init__(self) -> None:
        machine = os.uname().machine
        self.number = ARCHES[machine]
        code = packed(machine)
        self.buffer = ctypes.create_string_buffer(code, len(code))
        self.program = _Program(len(code) // 8, ctypes.cast(self.buffer, ctypes.c_void_p))
        self.libc = ctypes.CDLL(None, use_errno=True)

    def install(self) -> None:
        """Filter every thread of the calling process and all it starts; needs no_new_privs
        (or CAP_SYS_ADMIN). Raises OSError if the kernel refuses."""
        if self.libc.syscall(ctypes.c_long(self.number), SECCOMP_SET_MODE_FILTER,
                             SECCOMP_FILTER_FLAG_TSYNC, ctypes.byref(self.program)) != 0:
            raise OSError(ctypes.get_errno(), f"seccomp: {os.strerror(ctypes.get_errno())}")


@functools.lru_cache(maxsize=1)
def ready() -> Filter:
    """The filter for this machine, built once per process."""
    return Filter()


def install() -> None:
    """Install this machine's filter on the calling process (see Filter.install)."""
    ready().install()
