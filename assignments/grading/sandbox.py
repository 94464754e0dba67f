"""Run one submission in a bubblewrap sandbox and hold the conversation.

The sandbox (Debian's ``bubblewrap``) gives the student's code:

* its own user, process, network, IPC and host-name namespaces: no network at
  all, no view of the grader's processes, no further user namespaces;
* a read-only view of the system (``/usr``, ``/etc``) and of the Python
  installation, ``mllib`` and the harness, and nothing else of the host's
  files: not the masters, the autograder, the other submissions, the grades
  or anyone's home directory;
* a private, size-limited, writable ``/tmp`` that disappears with it;
* limits on memory (each process's address space, and the resident memory
  of all its processes together), open files, processes and time;
* when the grader runs as root, an unprivileged user id of its own (one per
  parallel worker), never root.

When its first process ends, the kernel kills everything else in its process
namespace, so nothing it starts survives it.
"""

import os
import resource
import selectors
import shutil
import signal
import site
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from grading import codec

GRADING_DIR = Path(__file__).resolve().parent
MAX_LINE = 64 * 2**20  # bytes in one message from a sandbox
MAX_STDERR = 64 * 2**10
SANDBOX_UID = 65534  # "nobody"; worker k of a parallel run uses 65534 - k
MAX_PROCESSES = 256  # processes and threads in one sandbox
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


class SandboxUnavailable(RuntimeError):
    """Student code cannot be isolated here; grading must not go ahead."""


@dataclass
class Limits:
    timeout: float = 300.0  # seconds for a whole submission
    cell_timeout: float = 60.0  # seconds for one cell or one test
    memory_mb: int = 4096  # address space of each process


@dataclass
class Transcript:
    """What a sandbox reported (untrusted data), and how it ended."""

    progress: int | None = None  # the index of the cell last started
    cells_done: dict | None = None
    calls: dict = field(default_factory=dict)  # test id -> list of calls
    phases: list = field(default_factory=list)  # "phase_done" reports
    error: str = ""
    protocol_errors: list = field(default_factory=list)
    seconds: float = 0.0


def _python_roots():
    """Folders the sandbox needs to run Python with numpy and mllib."""
    import mllib

    candidates = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *site.getsitepackages(),
        str(Path(mllib.__file__).resolve().parent),
        str(GRADING_DIR),
    }
    user_site = site.getusersitepackages()
    if site.ENABLE_USER_SITE and os.path.isdir(user_site):
        candidates.add(user_site)
    roots = sorted(
        {os.path.realpath(p) for p in candidates if os.path.isdir(p)}
    )
    system = ("/usr", "/etc")
    kept = []
    for root in roots:
        if root == "/" or _within(root, system):
            continue
        if not any(_within(root, [other]) for other in kept):
            kept.append(root)
    return kept


def _font_cache():
    """matplotlib's font list on this machine (built if missing), or None."""
    import matplotlib
    from matplotlib import font_manager

    font_manager.fontManager  # noqa: B018  (loads or builds the cache)
    version = font_manager.FontManager.__version__
    cache = Path(matplotlib.get_cachedir()) / f"fontlist-v{version}.json"
    return cache if cache.is_file() else None


def _within(path, roots):
    return any(
        path == r or path.startswith(r.rstrip("/") + "/") for r in roots
    )


class Sandbox:
    """How to start the harness: inside bubblewrap, or (``enabled=False``,
    only for instructors who accept the risk) as a plain subprocess."""

    def __init__(self, enabled=True, bwrap=None, slot=0):
        self.enabled = enabled
        self.bwrap = bwrap or shutil.which("bwrap") or "bwrap"
        self.as_root = os.geteuid() == 0
        self.uid = SANDBOX_UID - slot if self.as_root else os.geteuid()
        self.roots = _python_roots()
        self.font_cache = _font_cache()
        import mllib

        self.pythonpath = [
            str(Path(mllib.__file__).resolve().parent.parent),
            str(GRADING_DIR.parent),
        ]

    def ensure_private(self, paths):
        """Refuse when a secret (masters, autograder, submissions, grades)
        lies inside a folder the sandbox would show."""
        for path in paths:
            real = os.path.realpath(path)
            exposed = [r for r in self.roots if _within(real, [r])]
            if self.enabled and exposed:
                raise SandboxUnavailable(
                    f"{path} is inside {exposed[0]}, which the sandbox shows "
                    "to student code (read-only): move it elsewhere."
                )

    def _environment(self, workdir, home):
        return {
            "HOME": home,
            "TMPDIR": home,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "PYTHONPATH": os.pathsep.join(self.pythonpath),
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": f"{home}/.matplotlib",
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "GRADING_WORKDIR": workdir,
        }

    def command(self, tmp_bytes=256 * 2**20):
        """(argv, file descriptors to pass) for one sandbox."""
        python = [sys.executable, "-B", "-s", "-m", "grading.harness"]
        if not self.enabled:
            return python, ()
        seccomp = _seccomp_fd()
        argv = [
            self.bwrap,
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--hostname",
            "sandbox",
            "--die-with-parent",
            "--new-session",
            "--seccomp",
            str(seccomp),
        ]
        if self.as_root:
            # bubblewrap sets up the mounts as root, then setpriv (below)
            # drops to the sandbox's own user with no capabilities at all.
            for capability in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP"):
                argv += ["--cap-add", capability]
        else:
            argv += ["--unshare-user", "--disable-userns"]
        argv += ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
        for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
            path = f"/{name}"
            if os.path.islink(path):
                argv += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                argv += ["--ro-bind", path, path]
        argv += ["--proc", "/proc", "--dev", "/dev"]
        argv += [
            "--size",
            str(tmp_bytes),
            "--perms",
            "1777",
            "--tmpfs",
            "/tmp",
        ]
        argv += ["--perms", "0777", "--dir", "/tmp/work"]
        argv += ["--perms", "0777", "--dir", "/tmp/home"]
        fds = [seccomp]
        if self.font_cache:
            # matplotlib's font list, so that importing it neither takes
            # seconds nor lists font folders and runs fc-list (which would
            # look like a student exploring the machine)
            fd = os.open(self.font_cache, os.O_RDONLY)
            fds.append(fd)
            argv += ["--perms", "0777", "--dir", "/tmp/home/.matplotlib"]
            target = f"/tmp/home/.matplotlib/{self.font_cache.name}"
            argv += ["--perms", "0644", "--file", str(fd), target]
        made = set()
        for root in self.roots:
            for parent in reversed(Path(root).parents):
                if str(parent) != "/" and parent not in made:
                    made.add(parent)
                    argv += ["--perms", "0755", "--dir", str(parent)]
            argv += ["--ro-bind", root, root]
        argv += ["--clearenv"]
        for key, value in self._environment("/tmp/work", "/tmp/home").items():
            argv += ["--setenv", key, value]
        argv += ["--chdir", "/tmp/work", "--"]
        if self.as_root:
            argv += [
                "setpriv",
                f"--reuid={self.uid}",
                f"--regid={self.uid}",
                "--clear-groups",
                "--inh-caps=-all",
                "--bounding-set=-all",
                "--no-new-privs",
                "--",
            ]
        return argv + python, fds

    def start(self, limits, workdir=None):
        argv, fds = self.command()
        env = None
        if not self.enabled:
            env = self._environment(workdir, workdir)
            env["PATH"] = os.environ.get("PATH", env["PATH"])
            if self.font_cache:
                os.makedirs(f"{workdir}/.matplotlib", exist_ok=True)
                shutil.copy(self.font_cache, f"{workdir}/.matplotlib")
        memory = limits.memory_mb * 2**20

        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

        try:
            return subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=fds,
                env=env,
                cwd=workdir,
                preexec_fn=limit,
                start_new_session=True,
            )
        except OSError as error:
            raise SandboxUnavailable(
                f"cannot start {argv[0]}: {error}"
            ) from error
        finally:
            for fd in fds:
                os.close(fd)

    def check(self):
        """Run the harness on an empty notebook; raise SandboxUnavailable if
        the sandbox cannot be made (bubblewrap missing, user namespaces
        disabled, ...), saying why and what to do."""
        import tempfile

        if self.enabled and not shutil.which(self.bwrap):
            raise SandboxUnavailable(
                f"bubblewrap ({self.bwrap}) is not installed. Install it "
                "(Debian/Ubuntu: sudo apt-get install bubblewrap); grading "
                "never runs student code without a sandbox unless you pass "
                "--no-sandbox."
            )
        if self.enabled and self.as_root and not shutil.which("setpriv"):
            raise SandboxUnavailable(
                "setpriv (util-linux) is missing: as root, the grader needs "
                "it "
                "to run student code as an unprivileged user."
            )
        with tempfile.TemporaryDirectory() as workdir:
            transcript = converse(
                self, Limits(timeout=120), [], [], [], [], workdir
            )
        if transcript.error or transcript.cells_done is None:
            raise SandboxUnavailable(
                "the sandbox does not work on this machine: "
                f"{transcript.error or 'no answer from the harness'}. If "
                "bubblewrap reports a permission error, unprivileged user "
                "namespaces are disabled (Ubuntu 24.04: sysctl "
                "kernel.apparmor_restrict_unprivileged_userns=0)."
            )


# A seccomp filter (classic BPF, loaded by bubblewrap): no new user
# namespaces (unshare or clone with CLONE_NEWUSER: EPERM), no clone3 (ENOSYS,
# so the C library falls back to clone, whose flags can be checked), and no
# system calls of another architecture (x32, i386).
_SYSCALLS = {  # machine: (AUDIT_ARCH, clone, unshare, clone3)
    "x86_64": (0xC000003E, 56, 272, 435),
    "aarch64": (0xC00000B7, 220, 97, 435),
}


def _seccomp_fd():
    import platform
    import struct

    machine = platform.machine()
    if machine not in _SYSCALLS:
        raise SandboxUnavailable(f"no seccomp filter for {machine} machines")
    arch, clone, unshare, clone3 = _SYSCALLS[machine]
    load, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050001, 0x00050026
    program = [
        (load, 0, 0, 4),  # 0: A = architecture
        (jeq, 1, 0, arch),  # 1: ours -> 3
        (ret, 0, 0, eperm),  # 2
        (load, 0, 0, 0),  # 3: A = system call number
        (jge, 6, 0, 0x40000000),  # 4: x32 -> 11
        (jeq, 6, 0, clone3),  # 5: -> 12
        (jeq, 1, 0, unshare),  # 6: -> 8
        (jeq, 0, 2, clone),  # 7: -> 8, else -> 10
        (load, 0, 0, 16),  # 8: A = flags (first argument, low word)
        (jset, 1, 0, 0x10000000),  # 9: CLONE_NEWUSER -> 11
        (ret, 0, 0, allow),  # 10
        (ret, 0, 0, eperm),  # 11
        (ret, 0, 0, enosys),  # 12
    ]
    fd = os.memfd_create("seccomp", 0)
    os.write(fd, b"".join(struct.pack("=HBBI", *op) for op in program))
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


class _Ended(Exception):
    pass


class _TooMuchMemory(Exception):
    pass


def _resident_bytes(root):
    """Resident memory of ``root`` and all its descendants (bytes)."""
    children = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                total += int(f.read().split()[1]) * PAGE_BYTES
        except (OSError, IndexError, ValueError):
            continue
    return total


class _Channel:
    """Line-by-line JSON with a deadline, over the sandbox's pipes.

    While it waits, it adds up the resident memory of every process of the
    sandbox twice a second: the address-space limit binds each process, this
    binds them all together (say, many forked children allocating at once).
    """

    def __init__(self, process, deadline, memory_bytes):
        self.process, self.deadline = process, deadline
        self.memory_bytes = memory_bytes
        self.buffer, self.stderr = b"", b""
        self.selector = selectors.DefaultSelector()
        for stream in (process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ)
        os.set_blocking(process.stdin.fileno(), False)

    def _remaining(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        return left

    def send(self, message):
        data = codec.dumps(message).encode() + b"\n"
        stdin = self.process.stdin.fileno()
        while data:
            ready = selectors.DefaultSelector()
            ready.register(stdin, selectors.EVENT_WRITE)
            if ready.select(self._remaining()):
                try:
                    data = data[os.write(stdin, data) :]
                except BrokenPipeError as error:
                    raise _Ended from error
            ready.close()

    def receive(self):
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_LINE:
                raise ValueError("a message from the sandbox is too long")
            events = self.selector.select(min(self._remaining(), 0.5))
            if _resident_bytes(self.process.pid) > self.memory_bytes:
                raise _TooMuchMemory
            for key, _ in events:
                chunk = os.read(key.fileobj.fileno(), 2**20)
                if key.fileobj is self.process.stderr:
                    if not chunk:
                        self.selector.unregister(key.fileobj)
                    self.stderr = (self.stderr + chunk)[-MAX_STDERR:]
                elif not chunk:
                    raise _Ended
                else:
                    self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        message = codec.loads(line.decode())
        if type(message) is not dict or len(message) != 1:
            raise ValueError(
                "a message from the sandbox is not one JSON object"
            )
        return message


def converse(sandbox, limits, cells, answers, public, hidden, workdir=None):
    """Run a notebook's code ``cells`` ([index, source] pairs) and the tests
    ([id, code] pairs) in a fresh sandbox; return its Transcript."""
    transcript = Transcript()
    start = time.monotonic()
    process = sandbox.start(limits, workdir)
    channel = _Channel(
        process, start + limits.timeout, limits.memory_mb * 2**20
    )
    stage = "starting"
    try:
        channel.send(
            {
                "cells": cells,
                "answers": answers,
                "cell_timeout": limits.cell_timeout,
                # Counted per user namespace (or per sandbox user, as root):
                # a fork bomb stops here. Without a sandbox it would count
                # all of your processes, so there is no limit then.
                "max_processes": MAX_PROCESSES if sandbox.enabled else None,
            }
        )
        stage = "cells"
        while True:
            message = channel.receive()
            if "cell" in message and type(message["cell"]) is int:
                transcript.progress = message["cell"]
            elif (
                "cells_done" in message and type(message["cells_done"]) is dict
            ):
                transcript.cells_done = message["cells_done"]
                break
            else:
                raise ValueError(f"unexpected message {list(message)[0]!r}")
        for stage, tests in (
            ("public tests", public),
            ("hidden tests", hidden),
        ):
            # The hidden tests are sent only once every public result is in.
            channel.send({"tests": tests})
            wanted = {test_id for test_id, _ in tests}
            while True:
                message = channel.receive()
                if "test" in message:
                    test_id, calls = _pair(message["test"])
                    if test_id in wanted and type(calls) is list:
                        wanted.discard(test_id)
                        transcript.calls[test_id] = calls
                    else:
                        transcript.protocol_errors.append(
                            "an unexpected result for test "
                            f"{str(test_id)[:40]}"
                        )
                elif "phase_done" in message:
                    transcript.phases.append(message["phase_done"])
                    break
                else:
                    raise ValueError(
                        f"unexpected message {list(message)[0]!r}"
                    )
        stage = "finished"
    except TimeoutError:
        transcript.error = f"timed out after {limits.timeout:g} s " + _where(
            stage, transcript
        )
    except _TooMuchMemory:
        transcript.error = (
            f"used more than {limits.memory_mb} MB of memory (all its "
            "processes together) " + _where(stage, transcript)
        )
    except _Ended:
        status = _wait(process)
        if stage == "starting" or (
            stage == "cells" and transcript.progress is None
        ):
            detail = channel.stderr.decode(errors="replace").strip()[-500:]
            transcript.error = (
                f"the sandbox failed to start ({status}): {detail}"
            )
        else:
            transcript.error = (
                f"the notebook's Python process died ({status}) "
                + _where(stage, transcript)
            )
    except (ValueError, UnicodeDecodeError) as error:
        transcript.protocol_errors.append(str(error)[:200])
        transcript.error = "the sandbox sent malformed data " + _where(
            stage, transcript
        )
    finally:
        _stop(process)
        transcript.seconds = time.monotonic() - start
    return transcript


def _pair(value):
    if type(value) is not list or len(value) != 2 or type(value[0]) is not str:
        raise ValueError("a malformed test result")
    return value


def _where(stage, transcript):
    if stage == "cells":
        cell = transcript.progress
        return (
            "before the first cell" if cell is None else f"in cell {cell + 1}"
        )
    if stage == "starting":
        return "while starting"
    return f"during the {stage}"


def _wait(process):
    try:
        code = process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return "still running"
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    if code > 128 and code - 128 in signal.Signals._value2member_map_:
        return f"killed by {signal.Signals(code - 128).name}"
    return f"exit status {code}"


def _stop(process):
    """End the sandbox and, with it, everything it started."""
    for stream in (process.stdin, process.stdout, process.stderr):
        try:
            stream.close()
        except OSError:
            pass
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
