"""Run one submission in a bubblewrap sandbox and hold the conversation.

The sandbox (Debian's ``bubblewrap``) gives the student's code:

* its own user, process, network, IPC, cgroup and host-name namespaces: no
  network at all, no view of the grader's processes, no further user
  namespaces;
* a read-only view of the system (``/usr``, ``/etc``) and of the Python
  installation, ``mllib`` and the harness, and nothing else of the host's
  files: not the masters, the autograder, the other submissions, the grades
  or anyone's home directory; its root and ``/dev`` are read-only too;
* a private, size-limited, writable ``/tmp`` and ``/dev/shm`` that disappear
  with it;
* limits on memory (each process's address space; all its processes, files
  in ``/tmp`` and ``/dev/shm`` together; a memory cgroup where the grader can
  make one), open files, processes and time;
* a seccomp filter that refuses what could carry data between sandboxes or
  hold memory out of sight (``seccomp_program``);
* when the grader runs as root, a user id of its own, never used before in
  this run and never root.

When its first process ends, the kernel kills everything else in its process
namespace, so nothing it starts survives it.

``Session`` is one sandbox held open: the checker asks it to run the
notebook's cells, then to call the student's functions one at a time, and
reads back plain data (``grading.codec``).
"""

import errno
import itertools
import os
import platform
import resource
import selectors
import shutil
import signal
import site
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from grading import codec

GRADING_DIR = Path(__file__).resolve().parent
MAX_MESSAGE = 48 * 2**20  # bytes in one message from a sandbox
MAX_RECEIVED = 512 * 2**20  # bytes from one sandbox in all
MAX_STDERR = 64 * 2**10
MAX_PROCESSES = 256  # processes and threads in one sandbox
SHM_BYTES = 16 * 2**20  # /dev/shm in the sandbox
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
CALL_GRACE = 10.0  # seconds past the cell timeout before a call is given up
WATCH_EVERY = 0.5  # seconds between two counts of a sandbox's memory
# As root, each sandbox runs as a user id of its own: UID_BASE plus a number
# from the checker's process id and a counter, far above any real account.
UID_BASE = 0x60000000
PID_BITS, COUNTER_BITS = 22, 9  # 2**22 is Linux's largest pid_max


class SandboxUnavailable(RuntimeError):
    """Student code cannot be isolated here; grading must not go ahead."""


class SessionEnded(Exception):
    """The sandbox stopped answering; ``reason`` says how (for the
    instructor, and for the student only before the hidden tests)."""

    def __init__(self, reason, memory=False):
        super().__init__(reason)
        self.reason = reason
        self.memory = memory


@dataclass
class Limits:
    timeout: float = 300.0  # seconds for a whole submission
    cell_timeout: float = 60.0  # seconds for one cell or one call
    memory_mb: int = 4096  # address space of each process, and all together

    def tmp_bytes(self):
        """The size of the sandbox's /tmp: a quarter of its memory, at most
        256 MB (files there count against the memory limit too)."""
        return min(256 * 2**20, self.memory_mb * 2**20 // 4)


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


_uids = itertools.count()


def _fresh_uid():
    """A user id that no other sandbox running at the same time has: the
    kernel keeps state per user (keyrings, counts of inotify watches and
    processes), so no two sandboxes share one. Two checkers alive at once
    have two process ids, and one checker runs one sandbox at a time; a
    checker's counter wraps after 512 sandboxes and a later batch may meet
    an id again, when nothing of the earlier sandbox runs any more (and the
    per-user state it could have left, keyrings, is refused by seccomp)."""
    pid = os.getpid() % 2**PID_BITS
    count = next(_uids) % 2**COUNTER_BITS
    return UID_BASE + (pid << COUNTER_BITS) + count


class Sandbox:
    """How to start the harness: inside bubblewrap, or (``enabled=False``,
    only for instructors who accept the risk) as a plain subprocess."""

    def __init__(self, enabled=True, bwrap=None):
        self.enabled = enabled
        self.bwrap = bwrap or shutil.which("bwrap") or "bwrap"
        self.as_root = os.geteuid() == 0
        self.roots = _python_roots()
        self.font_cache = _font_cache()
        self.cgroups = MemoryCgroups.find() if enabled else None
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

    def describe(self):
        """One line for the log: how submissions are contained here."""
        if not self.enabled:
            return "no sandbox (--no-sandbox)"
        who = (
            "a user id of its own per sandbox"
            if self.as_root
            else "your user id, in a user namespace of its own"
        )
        memory = (
            f"a memory cgroup ({self.cgroups.version})"
            if self.cgroups
            else "a watch on its processes and its /tmp and /dev/shm"
        )
        return f"bubblewrap, {who}, total memory bounded by {memory}"

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

    def command(self, limits):
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
        # Size-limited, private tmpfs for /dev/shm and /tmp; the rest of /dev
        # and the sandbox's root are made read-only below, so these two are
        # the only places a file can be written, and both are counted.
        argv += ["--size", str(SHM_BYTES), "--perms", "1777"]
        argv += ["--tmpfs", "/dev/shm"]
        argv += ["--size", str(limits.tmp_bytes()), "--perms", "1777"]
        argv += ["--tmpfs", "/tmp"]
        argv += ["--perms", "0777", "--dir", "/tmp/work"]
        argv += ["--perms", "0777", "--dir", "/tmp/home"]
        fds = [seccomp]
        if self.font_cache:
            # matplotlib's font list, so that importing it neither takes
            # seconds nor lists font folders and runs fc-list (which would
            # look like a student exploring the machine)
            fd = os.open(self.font_cache, os.O_RDONLY | os.O_CLOEXEC)
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
        argv += ["--remount-ro", "/dev", "--remount-ro", "/"]
        argv += ["--clearenv"]
        for key, value in self._environment("/tmp/work", "/tmp/home").items():
            argv += ["--setenv", key, value]
        argv += ["--chdir", "/tmp/work", "--"]
        if self.as_root:
            uid = _fresh_uid()
            argv += [
                "setpriv",
                f"--reuid={uid}",
                f"--regid={uid}",
                "--clear-groups",
                "--inh-caps=-all",
                "--bounding-set=-all",
                "--no-new-privs",
                "--",
            ]
        return argv + python, fds

    def start(self, limits, workdir=None, cgroup=None):
        argv, fds = self.command(limits)
        env = None
        if not self.enabled:
            env = self._environment(workdir, workdir)
            env["PATH"] = os.environ.get("PATH", env["PATH"])
            if self.font_cache:
                os.makedirs(f"{workdir}/.matplotlib", exist_ok=True)
                shutil.copy(self.font_cache, f"{workdir}/.matplotlib")
        memory = limits.memory_mb * 2**20
        procs = cgroup.procs_file if cgroup else None

        def prepare():  # in the child, before bubblewrap starts
            if procs:
                with open(procs, "w") as f:
                    f.write(str(os.getpid()))
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

        try:
            return subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=fds,
                env=env,
                cwd=workdir,
                preexec_fn=prepare,
                start_new_session=True,
            )
        except (OSError, subprocess.SubprocessError) as error:
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
                "it to run student code as an unprivileged user."
            )
        with tempfile.TemporaryDirectory() as workdir:
            try:
                with Session(self, Limits(timeout=120), workdir) as session:
                    session.run_cells([], [])
            except SessionEnded as ended:
                raise SandboxUnavailable(
                    f"the sandbox does not work on this machine: "
                    f"{ended.reason}. If bubblewrap reports a permission "
                    "error, unprivileged user namespaces are disabled "
                    "(Ubuntu 24.04: sysctl "
                    "kernel.apparmor_restrict_unprivileged_userns=0)."
                ) from None


# ------------------------------------------------------------------ seccomp --
# A classic BPF program, loaded by bubblewrap before it starts the harness.
# It refuses, with an error the student's code can see:
#
# * new user namespaces (unshare or clone with CLONE_NEWUSER), and clone3
#   (ENOSYS, so the C library falls back to clone, whose flags can be read);
# * everything that lets one process leave a mark another can read through
#   the kernel rather than a file: the kernel keyrings (keyctl, add_key,
#   request_key: they belong to a user id and outlive the sandbox), file
#   locks and leases (flock and fcntl's lock commands: two sandboxes see the
#   same inodes of the read-only system), inotify, fanotify and fcntl's
#   F_NOTIFY (which would report one sandbox's reads to another), mincore and
#   cachestat (which page of a shared file is in memory);
# * memory that no process's resident size shows: memfd_create and
#   memfd_secret, System V shared memory, message queues and semaphores,
#   POSIX message queues, io_uring (whose requests seccomp cannot see);
# * perf_event_open, bpf and userfaultfd, which nothing here needs;
# * system calls of another architecture (x32, i386).
#
# Nothing the harness, numpy, scipy or matplotlib do needs any of these.

_SYSCALLS = {  # machine: (AUDIT_ARCH, {name: number})
    "x86_64": (
        0xC000003E,
        {
            "clone": 56, "unshare": 272, "clone3": 435, "fcntl": 72,
            "keyctl": 250, "add_key": 248, "request_key": 249,
            "flock": 73, "inotify_init": 253, "inotify_init1": 294,
            "fanotify_init": 300, "mincore": 27, "cachestat": 451,
            "memfd_create": 319, "memfd_secret": 447, "shmget": 29,
            "shmat": 30, "msgget": 68, "semget": 64, "mq_open": 240,
            "io_uring_setup": 425, "io_uring_enter": 426,
            "io_uring_register": 427, "perf_event_open": 298, "bpf": 321,
            "userfaultfd": 323,
        },
    ),
    "aarch64": (  # the generic table of include/uapi/asm-generic/unistd.h
        0xC00000B7,
        {
            "clone": 220, "unshare": 97, "clone3": 435, "fcntl": 25,
            "keyctl": 219, "add_key": 217, "request_key": 218,
            "flock": 32, "inotify_init1": 26, "fanotify_init": 262,
            "mincore": 232, "cachestat": 451, "memfd_create": 279,
            "memfd_secret": 447, "shmget": 194, "shmat": 196,
            "msgget": 186, "semget": 190, "mq_open": 180,
            "io_uring_setup": 425, "io_uring_enter": 426,
            "io_uring_register": 427, "perf_event_open": 241, "bpf": 280,
            "userfaultfd": 282,
        },
    ),
}  # fmt: skip
REFUSED = {  # system call: errno
    "keyctl": errno.EPERM, "add_key": errno.EPERM,
    "request_key": errno.EPERM, "flock": errno.ENOLCK,
    "inotify_init": errno.EPERM, "inotify_init1": errno.EPERM,
    "fanotify_init": errno.EPERM, "mincore": errno.EPERM,
    "cachestat": errno.EPERM, "memfd_create": errno.EPERM,
    "memfd_secret": errno.EPERM, "shmget": errno.EPERM,
    "shmat": errno.EPERM, "msgget": errno.EPERM, "semget": errno.EPERM,
    "mq_open": errno.EPERM, "io_uring_setup": errno.EPERM,
    "io_uring_enter": errno.EPERM, "io_uring_register": errno.EPERM,
    "perf_event_open": errno.EPERM, "bpf": errno.EPERM,
    "userfaultfd": errno.EPERM,
}  # fmt: skip
# fcntl commands that lock, lease or watch: F_GETLK, F_SETLK, F_SETLKW,
# F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE, F_GETLEASE, F_NOTIFY
FCNTL_REFUSED = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
CLONE_NEWUSER = 0x10000000

_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000  # SECCOMP_RET_ERRNO | errno
_NR, _ARCH, _ARG0, _ARG1 = 0, 4, 16, 24  # offsets in struct seccomp_data


def seccomp_program(machine=None):
    """The filter, as a list of (code, jt, jf, k) BPF instructions."""
    machine = machine or platform.machine()
    if machine not in _SYSCALLS:
        raise SandboxUnavailable(f"no seccomp filter for {machine} machines")
    arch, numbers = _SYSCALLS[machine]

    def deny(error):
        return (_RET, 0, 0, _ERRNO | error)

    program = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ, 1, 0, arch),  # our architecture: go on
        deny(errno.EPERM),
        (_LD_W_ABS, 0, 0, _NR),
        (_JGE, 0, 1, 0x40000000),  # x32 system calls
        deny(errno.EPERM),
        (_JEQ, 0, 1, numbers["clone3"]),
        deny(errno.ENOSYS),
    ]
    for name, flags_at in (("clone", _ARG0), ("unshare", _ARG0)):
        program += [
            (_JEQ, 0, 4, numbers[name]),
            (_LD_W_ABS, 0, 0, flags_at),
            (_JSET, 0, 1, CLONE_NEWUSER),
            deny(errno.EPERM),
            (_RET, 0, 0, _ALLOW),
        ]
    program += [(_JEQ, 0, 2 * len(FCNTL_REFUSED) + 2, numbers["fcntl"])]
    program += [(_LD_W_ABS, 0, 0, _ARG1)]
    for command in FCNTL_REFUSED:
        program += [(_JEQ, 0, 1, command), deny(errno.ENOLCK)]
    program += [(_RET, 0, 0, _ALLOW)]
    for name, error in REFUSED.items():
        if name in numbers:
            program += [(_JEQ, 0, 1, numbers[name]), deny(error)]
    program += [(_RET, 0, 0, _ALLOW)]
    return program


def _seccomp_fd():
    program = seccomp_program()
    fd = os.memfd_create("seccomp", os.MFD_CLOEXEC)
    os.write(fd, b"".join(struct.pack("=HBBI", *op) for op in program))
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


# ------------------------------------------------------------------ cgroups --


class MemoryCgroups:
    """Memory cgroups the grader can make, one per sandbox: the kernel then
    counts everything a submission holds (its processes, its files in tmpfs,
    kernel memory) and stops it at the limit. Found where the grader may
    create them (as root; or where systemd delegated a cgroup to you);
    elsewhere grading goes on with the watch in ``_Channel``."""

    def __init__(self, parent, version):
        self.parent, self.version = Path(parent), version

    @classmethod
    def find(cls):
        try:
            lines = Path("/proc/self/cgroup").read_text().splitlines()
            mounts = Path("/proc/self/mountinfo").read_text().splitlines()
        except OSError:
            return None
        points = {}
        for mount in mounts:
            fields = mount.split()
            if " - " not in mount:
                continue
            after = mount.split(" - ", 1)[1].split()
            kind, options = after[0], after[-1].split(",")
            if kind == "cgroup2":
                points.setdefault("2", fields[4])
            elif kind == "cgroup" and "memory" in options:
                points.setdefault("1", fields[4])
        for line in lines:
            number, controllers, path = line.split(":", 2)
            if number == "0" and "2" in points:
                mine = Path(points["2"] + path)
                for parent in (mine, mine.parent):
                    found = cls._try(parent, "v2")
                    if found:
                        return found
            elif "memory" in controllers.split(",") and "1" in points:
                found = cls._try(Path(points["1"] + path), "v1")
                if found:
                    return found
        return None

    @classmethod
    def _try(cls, parent, version):
        if version == "v2":
            try:
                enabled = (parent / "cgroup.subtree_control").read_text()
            except OSError:
                return None
            if "memory" not in enabled.split():
                return None
        candidate = cls(parent, version)
        try:
            probe = candidate.create(64 * 2**20)
        except OSError:
            return None
        try:  # a process must be able to join it, too
            subprocess.run(
                ["true"],
                preexec_fn=lambda: Path(probe.procs_file).write_text(
                    str(os.getpid())
                ),
                check=True,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        finally:
            probe.remove()
        return candidate

    def create(self, limit_bytes):
        path = self.parent / f"grading-{os.getpid()}-{next(_uids)}"
        path.mkdir()
        group = _Cgroup(path, self.version)
        try:
            group.limit(limit_bytes)
        except OSError:
            group.remove()
            raise
        return group


class _Cgroup:
    def __init__(self, path, version):
        self.path, self.version = path, version
        self.procs_file = str(path / "cgroup.procs")

    def limit(self, limit_bytes):
        if self.version == "v2":
            (self.path / "memory.max").write_text(str(limit_bytes))
            swap = self.path / "memory.swap.max"
            if swap.exists():
                swap.write_text("0")
        else:
            (self.path / "memory.limit_in_bytes").write_text(str(limit_bytes))
            swap = self.path / "memory.memsw.limit_in_bytes"
            if swap.exists():
                try:
                    swap.write_text(str(limit_bytes))
                except OSError:
                    pass

    def ran_out(self):
        """Whether the kernel stopped a process here for lack of memory."""
        try:
            if self.version == "v2":
                text = (self.path / "memory.events").read_text()
            else:
                text = (self.path / "memory.oom_control").read_text()
                failures = (self.path / "memory.failcnt").read_text()
                if int(failures.strip() or 0) and "oom_kill " not in text:
                    return True
        except OSError:
            return False
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip() not in ("", "0"):
                return True
        return False

    def remove(self):
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)  # its last processes are still exiting


# ------------------------------------------------------------------ channel --


def _children():
    children = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def _used_bytes(root, tmpfs=()):
    """Memory held by ``root`` and all its descendants: their resident
    memory, plus the files in the sandbox's ``tmpfs`` ((folder, size)
    pairs), read through a process inside it once that process sees them
    (while bubblewrap sets up, its root is still the machine's)."""
    children = _children()
    total, todo, inside = 0, [root], None
    while todo:
        pid = todo.pop()
        descendants = children.get(pid, [])
        todo += descendants
        if pid != root and inside is None:
            inside = pid
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                total += int(f.read().split()[1]) * PAGE_BYTES
        except (OSError, IndexError, ValueError):
            continue
    for folder, size in tmpfs if inside is not None else ():
        try:
            usage = os.statvfs(f"/proc/{inside}/root{folder}")
        except OSError:
            continue
        if usage.f_blocks * usage.f_frsize == size:  # the sandbox's own
            total += (usage.f_blocks - usage.f_bfree) * usage.f_frsize
    return total


class _Channel:
    """Line-by-line JSON with deadlines, over the sandbox's pipes.

    While it waits, it adds up the memory the sandbox holds twice a second:
    the address-space limit binds each process, this binds them all
    together (many forked children allocating at once, files in tmpfs).
    """

    def __init__(self, process, deadline, memory_bytes, tmpfs=(), cgroup=None):
        self.process, self.deadline = process, deadline
        self.memory_bytes, self.tmpfs = memory_bytes, tmpfs
        self.cgroup = cgroup
        self.chunks, self.stderr = [], b""
        self.received, self.watched_at = 0, 0.0
        self.selector = selectors.DefaultSelector()
        for stream in (process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ)
        os.set_blocking(process.stdin.fileno(), False)

    def _remaining(self, until):
        left = min(self.deadline, until) - time.monotonic()
        if left <= 0:
            raise TimeoutError
        return left

    def send(self, message, until=float("inf")):
        data = codec.dumps(message).encode() + b"\n"
        stdin = self.process.stdin.fileno()
        ready = selectors.DefaultSelector()
        ready.register(stdin, selectors.EVENT_WRITE)
        try:
            while data:
                if ready.select(min(self._remaining(until), WATCH_EVERY)):
                    try:
                        data = data[os.write(stdin, data) :]
                    except BrokenPipeError as error:
                        raise _Ended from error
                self._watch()
        finally:
            ready.close()

    def _watch(self):
        """Add up the sandbox's memory, at most twice a second (a call is
        answered in well under that, and a scan of /proc costs time)."""
        now = time.monotonic()
        if now - self.watched_at < WATCH_EVERY:
            return
        self.watched_at = now
        if self.cgroup is not None and self.cgroup.ran_out():
            raise _TooMuchMemory  # the kernel stopped one of its processes
        if _used_bytes(self.process.pid, self.tmpfs) > self.memory_bytes:
            raise _TooMuchMemory

    def receive(self, until=float("inf")):
        """The next message (chunks are kept in a list and only the newest
        is searched for the end of line: a message of many megabytes costs
        linear time)."""
        while not (self.chunks and b"\n" in self.chunks[-1]):
            if sum(map(len, self.chunks)) > MAX_MESSAGE:
                raise ValueError("a message from the sandbox is too long")
            events = self.selector.select(
                min(self._remaining(until), WATCH_EVERY)
            )
            self._watch()
            for key, _ in events:
                chunk = os.read(key.fileobj.fileno(), 2**20)
                if key.fileobj is self.process.stderr:
                    if not chunk:
                        self.selector.unregister(key.fileobj)
                    self.stderr = (self.stderr + chunk)[-MAX_STDERR:]
                elif not chunk:
                    raise _Ended
                else:
                    self.received += len(chunk)
                    if self.received > MAX_RECEIVED:
                        raise ValueError(
                            "the sandbox sent more data than the grader "
                            "accepts from one submission"
                        )
                    self.chunks.append(chunk)
        data = b"".join(self.chunks)
        line, rest = data.split(b"\n", 1)
        self.chunks = [rest] if rest else []
        message = codec.loads(line.decode())
        if type(message) is not dict or len(message) != 1:
            raise ValueError(
                "a message from the sandbox is not one JSON object"
            )
        return message


class _Ended(Exception):
    pass


class _TooMuchMemory(Exception):
    pass


# ------------------------------------------------------------------ session --


class Session:
    """One submission's sandbox, held open while the checker asks.

    ``run_cells`` runs the notebook; ``call`` calls one of the student's
    functions with plain-data arguments and returns what came back;
    ``report`` asks for what the harness saw at run time. Each raises
    ``SessionEnded`` (saying how) when the sandbox died, timed out, used too
    much memory or sent something malformed; the session is then closed.
    """

    def __init__(self, sandbox, limits, workdir=None):
        self.sandbox, self.limits = sandbox, limits
        self.start = time.monotonic()
        self.cgroup = None
        self.process = None
        self.stage = "starting"
        self.progress = None  # the index of the cell last started
        self.malformed = ""  # what was wrong with a malformed message
        memory = limits.memory_mb * 2**20
        if sandbox.cgroups:
            try:
                self.cgroup = sandbox.cgroups.create(memory)
            except OSError:
                self.cgroup = None
        try:
            self.process = sandbox.start(limits, workdir, self.cgroup)
        except BaseException:
            self.close()
            raise
        self.channel = _Channel(
            self.process,
            self.start + limits.timeout,
            memory,
            tmpfs=(
                (("/tmp", limits.tmp_bytes()), ("/dev/shm", SHM_BYTES))
                if sandbox.enabled
                else ()
            ),
            cgroup=self.cgroup,
        )

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def seconds(self):
        return time.monotonic() - self.start

    def run_cells(self, cells, answers):
        """Run the notebook's code ``cells`` ([index, source] pairs); return
        the harness's report (untrusted data: cell errors, the answers'
        values or kinds, what it saw at run time)."""

        def conversation():
            self.channel.send(
                {
                    "cells": cells,
                    "answers": answers,
                    "cell_timeout": self.limits.cell_timeout,
                    # Counted per user namespace (or per sandbox user, as
                    # root): a fork bomb stops here. Without a sandbox it
                    # would count all of your processes: no limit then.
                    "max_processes": MAX_PROCESSES
                    if self.sandbox.enabled
                    else None,
                }
            )
            self.stage = "cells"
            while True:
                message = self.channel.receive()
                if "cell" in message and type(message["cell"]) is int:
                    self.progress = message["cell"]
                elif "cells_done" in message:
                    self.stage = "calls"
                    return message["cells_done"]
                else:
                    raise ValueError("an unexpected message")

        return self._guarded(conversation)

    def call(self, name, args, kwargs, names=None):
        """Call the student's function ``name``; return one of ("returned",
        value), ("raised", type name, message), ("timeout",) or
        ("unsupported", reason). Raises codec.Unsupported (the test's
        arguments are not data) before anything is sent."""
        request = {
            "call": [
                name,
                codec.encode(list(args), names),
                codec.encode(dict(kwargs), names),
            ]
        }

        def conversation():
            until = time.monotonic() + self.limits.cell_timeout + CALL_GRACE
            self.channel.send(request, until)
            message = self.channel.receive(until)
            if "returned" in message:
                return "returned", codec.decode(message["returned"])
            if "raised" in message:
                kind, text = codec.decode(message["raised"])
                if type(kind) is not str or type(text) is not str:
                    raise ValueError("a malformed exception")
                return "raised", kind[:100], text[:2000]
            if "timeout" in message:
                return ("timeout",)
            if "unsupported" in message:
                reason = message["unsupported"]
                return "unsupported", str(reason)[:300]
            raise ValueError("an unexpected message")

        return self._guarded(conversation)

    def report(self):
        """What the harness saw while the student's code ran (untrusted)."""

        def conversation():
            self.channel.send({"report": True})
            message = self.channel.receive()
            if "report" not in message:
                raise ValueError("an unexpected message")
            return message["report"]

        return self._guarded(conversation)

    def _guarded(self, conversation):
        if self.process is None:
            raise SessionEnded("the sandbox is closed")
        try:
            return conversation()
        except TimeoutError:
            reason = self._timed_out()
        except _TooMuchMemory:
            reason = self._too_much_memory()
        except _Ended:
            reason = self._ended()
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            reason = "the sandbox sent malformed data " + self._where()
            self.malformed = str(error)[:200]
        memory = reason.startswith("used more than")
        self.close()
        raise SessionEnded(reason, memory=memory)

    def _where(self):
        if self.stage == "cells":
            cell = self.progress
            return (
                "before the first cell"
                if cell is None
                else f"in cell {cell + 1}"
            )
        if self.stage == "starting":
            return "while starting"
        return "while the tests called its functions"

    def _timed_out(self):
        if time.monotonic() >= self.channel.deadline:
            return (
                f"timed out after {self.limits.timeout:g} s " + self._where()
            )
        return (
            f"a function did not return within "
            f"{self.limits.cell_timeout + CALL_GRACE:g} s and ignored the "
            "stop"
        )

    def _too_much_memory(self):
        return (
            f"used more than {self.limits.memory_mb} MB of memory (all its "
            "processes and files together) " + self._where()
        )

    def _ended(self):
        status = _wait(self.process)
        if self.cgroup and self.cgroup.ran_out():
            return self._too_much_memory()
        if self.stage == "starting" or (
            self.stage == "cells" and self.progress is None
        ):
            detail = self.channel.stderr.decode(errors="replace").strip()
            return f"the sandbox failed to start ({status}): {detail[-500:]}"
        return f"the notebook's Python process died ({status}) " + (
            self._where()
        )

    def close(self):
        """End the sandbox and, with it, everything it started."""
        if self.process is not None:
            _stop(self.process)
            self.process = None
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None


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
