"""Code that runs inside the sandbox: stdlib only, loaded by path by the fork server.

The host imports only `tagged` from here (the plain-data format and the result-line protocol
both sides share); `kit` exists for mypy alone (the type of the server's `KIT`).
"""
