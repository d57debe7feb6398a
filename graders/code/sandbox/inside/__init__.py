"""Code that runs inside the sandbox: stdlib only, loaded by path by the fork server.

The host imports only `tagged` from here (the plain-data format both sides share).
"""
