"""What a notebook can do from inside the grading sandbox, as JSON.

    python tests/sandbox_probe.py look SECRETS_JSON MARKER
    python tests/sandbox_probe.py flood MARKER
    python tests/sandbox_probe.py hog

``look`` runs a cell that looks around (its user, capabilities, processes,
network, which paths it can see and write, the sizes of its tmpfs) and tries
every system call the sandbox refuses, then leaves a detached sleeper with
MARKER in its command line; ``flood`` forks until refused; ``hog`` has six
children each hold 320 MB. The tests run this script as root and as an
unprivileged user and read its one line of output.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "assignments"))

from grading import codec  # noqa: E402
from grading.sandbox import (  # noqa: E402
    Limits,
    Sandbox,
    Session,
    SessionEnded,
)

LOOK = r"""
import ctypes, errno, os, resource, socket, subprocess
observed = {}
observed["uid"] = os.getuid()
status = open("/proc/self/status").read()
observed["capabilities"] = status.split("CapEff:")[1].split()[0]
observed["processes"] = len([p for p in os.listdir("/proc") if p.isdigit()])
observed["hostname"] = socket.gethostname()
try:
    socket.create_connection(("1.1.1.1", 53), timeout=3)
    observed["network"] = "connected"
except OSError as error:
    observed["network"] = type(error).__name__
observed["interfaces"] = sorted(name for _, name in socket.if_nameindex())
def writable(path):
    try:
        with open(path, "w") as f:
            f.write("x")
        return True
    except OSError:
        return False
observed["writable"] = {
    path: writable(path)
    for path in ("/usr/grading-probe", os.__file__ + ".probe",
                 __import__("mllib").__file__ + ".probe", "/probe",
                 "/dev/probe", "/dev/shm/probe", "/tmp/probe", "probe")
}
def size(path):
    s = os.statvfs(path)
    return s.f_blocks * s.f_frsize
observed["tmpfs bytes"] = {p: size(p) for p in ("/tmp", "/dev/shm")}
observed["visible"] = [p for p in SECRETS if os.path.exists(p)]
unshare = subprocess.run(["unshare", "-U", "true"])
observed["user namespace"] = unshare.returncode
observed["memory limit"] = resource.getrlimit(resource.RLIMIT_AS)[1]
libc = ctypes.CDLL(None, use_errno=True)
NUMBERS = {  # x86_64, aarch64
    "add_key": (248, 217), "keyctl": (250, 219), "request_key": (249, 218),
    "memfd_create": (319, 279), "inotify_init1": (294, 26),
    "fanotify_init": (300, 262), "shmget": (29, 194), "msgget": (68, 186),
    "semget": (64, 190), "mq_open": (240, 180), "io_uring_setup": (425, 425),
    "perf_event_open": (298, 241), "bpf": (321, 280),
    "userfaultfd": (323, 282), "mincore": (27, 232),
}
machine = 0 if os.uname().machine == "x86_64" else 1
ARGUMENTS = {
    "add_key": (b"user", b"probe", b"x", 1, -4),
    "keyctl": (0, -4, 0),  # KEYCTL_GET_KEYRING_ID of the user keyring
    "request_key": (b"user", b"probe", None, 0),
    "memfd_create": (b"probe", 0),
    "inotify_init1": (0,),
    "fanotify_init": (0, 0),
    "shmget": (0, 4096, 0o1600),
    "msgget": (0, 0o1600),
    "semget": (0, 1, 0o1600),
    "mq_open": (b"probe", 0o100 | 2, 0o600, None),
    "io_uring_setup": (4, ctypes.create_string_buffer(120)),
    "perf_event_open": (ctypes.create_string_buffer(128), 0, -1, -1, 0),
    "bpf": (0, None, 0),
    "userfaultfd": (0,),
    "mincore": (ctypes.c_void_p(0), 4096, ctypes.create_string_buffer(1)),
}
refused = {}
for name, numbers in NUMBERS.items():
    result = libc.syscall(numbers[machine], *ARGUMENTS[name])
    error = errno.errorcode.get(ctypes.get_errno(), "?")
    refused[name] = error if result < 0 else "allowed"
import fcntl
shared = open(os.__file__, "rb")
for name, call in [
    ("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
    ("fcntl lock", lambda: fcntl.lockf(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
    ("fcntl query", lambda: fcntl.fcntl(shared, fcntl.F_GETLK, bytes(32))),
    ("fcntl notify", lambda: fcntl.fcntl(os.open("/tmp", os.O_RDONLY),
                                          fcntl.F_NOTIFY, fcntl.DN_ACCESS)),
]:
    try:
        call()
        refused[name] = "allowed"
    except OSError as error:
        refused[name] = errno.errorcode.get(error.errno, "?")
observed["refused"] = refused
subprocess.Popen(["sleep", "600", MARKER], start_new_session=True)
"""

FLOOD = """
import os
forked = 0
for _ in range(2000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.execv('/bin/sleep', ['sleep', '600', MARKER])
    forked += 1
"""

HOG = """
import os, time
import numpy as np
for _ in range(6):
    if os.fork() == 0:
        block = np.ones(40_000_000)  # 320 MB, written
        time.sleep(60)
time.sleep(60)
"""


def run(code, answer, memory_mb=2048):
    limits = Limits(timeout=60, cell_timeout=50, memory_mb=memory_mb)
    with Session(Sandbox(), limits) as session:
        try:
            done = session.run_cells([[0, code]], [answer] if answer else [])
        except SessionEnded as ended:
            return {"ended": ended.reason}
    report = {"errors": done["errors"]}
    if answer:
        report[answer] = codec.decode(done["answers"][answer]["value"])
    return report


def main(argv):
    mode = argv[0]
    if mode == "look":
        secrets, marker = json.loads(argv[1]), argv[2]
        code = f"SECRETS = {secrets!r}\nMARKER = {marker!r}\n" + LOOK
        report = run(code, "observed")
    elif mode == "flood":
        report = run(f"MARKER = {argv[1]!r}\n" + FLOOD, "forked")
    else:
        report = run(HOG, None, memory_mb=1024)
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv[1:])
