"""Run a command as an unprivileged user, from tests that run as root.

Grading must hold as root (CI) and as an instructor's own account. When the
tests run as root, ``as_user`` runs a command as the system user ``USER``
(created with ``useradd`` if missing) without capabilities. The Python the
tests use may live where no other user can reach (a venv built from a
Python under /root, a clone in /root): then the command runs in a private
mount namespace where each such folder is replaced by an empty tmpfs into
which only the needed paths are bind-mounted back, so the user sees the
same paths and nothing else of those folders. Nothing changes on the host.

Whatever cannot be done (no useradd, no unshare, a needed path unreadable)
raises ``Unavailable`` with the reason: the tests fail loudly, never skip.
"""

import os
import pwd
import shlex
import shutil
import stat
import subprocess
from pathlib import Path

USER = "mlbook-grader"


class Unavailable(RuntimeError):
    """An unprivileged run cannot be arranged on this machine (and why)."""


def account():
    """(uid, gid) of ``USER``, created (as a system user) if missing."""
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        if not shutil.which("useradd"):
            raise Unavailable("no useradd to create a test user") from None
        made = subprocess.run(
            ["useradd", "--system", "--user-group", "--no-create-home",
             "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
             USER],
            capture_output=True, text=True,
        )  # fmt: skip
        if made.returncode not in (0, 9):  # 9: it appeared meanwhile
            raise Unavailable(
                f"useradd {USER} failed: {made.stderr}"
            ) from None
        entry = pwd.getpwnam(USER)
    return entry.pw_uid, entry.pw_gid


def _can_enter(path, uid, gid):
    info = os.stat(path)
    if info.st_uid == uid:
        return bool(info.st_mode & stat.S_IXUSR)
    if info.st_gid == gid:
        return bool(info.st_mode & stat.S_IXGRP)
    return bool(info.st_mode & stat.S_IXOTH)


def blocked(paths, uid, gid):
    """The highest folders on the way to ``paths`` the user cannot enter."""
    found = []
    for path in paths:
        for parent in reversed(Path(path).parents):
            if not _can_enter(parent, uid, gid):
                if not any(parent.is_relative_to(b) for b in found):
                    found.append(parent)
                break
    return found


def command(argv, needed, env):
    """The argv that runs ``argv`` as ``USER`` with ``env``, seeing the
    ``needed`` paths (files or folders) where they are."""
    uid, gid = account()
    needed = sorted({os.path.realpath(p) for p in needed})
    drop = [
        "setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups",
        "--inh-caps=-all", "--bounding-set=-all", "--",
        "env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv,
    ]  # fmt: skip
    walls = blocked(needed, uid, gid)
    if not walls:
        return drop
    if not shutil.which("unshare"):
        raise Unavailable(
            f"{walls[0]} is closed to other users and there is no unshare "
            "to open a private view of it"
        )
    hidden = [
        p for p in needed if any(Path(p).is_relative_to(w) for w in walls)
    ]
    lines = ["set -e", 'stage="$(mktemp -d)"', 'mount -t tmpfs tmpfs "$stage"']
    for i, path in enumerate(hidden):
        kind = "-d" if os.path.isdir(path) else "-f"
        make = "mkdir" if kind == "-d" else "touch"
        lines += [
            f'{make} "$stage/{i}"',
            f'mount --bind {shlex.quote(path)} "$stage/{i}"',
        ]
    for wall in walls:
        lines.append(
            f"mount -t tmpfs -o mode=755 tmpfs {shlex.quote(str(wall))}"
        )
    for i, path in enumerate(hidden):
        quoted = shlex.quote(path)
        if os.path.isdir(path):
            lines.append(f"mkdir -p {quoted}")
        else:
            lines.append(f"mkdir -p {shlex.quote(os.path.dirname(path))}")
            lines.append(f"touch {quoted}")
        lines.append(f'mount --bind "$stage/{i}" {quoted}')
    lines.append("exec " + shlex.join(drop))
    return ["unshare", "--mount", "--propagation", "private", "--",
            "sh", "-c", "\n".join(lines)]  # fmt: skip


def check(needed, env):
    """Raise Unavailable unless the user can read every needed path."""
    probe = command(
        ["sh", "-c", " && ".join(
            f"test -r {shlex.quote(p)}" for p in sorted(set(map(str, needed)))
        )],
        needed,
        env,
    )  # fmt: skip
    result = subprocess.run(probe, capture_output=True, text=True)
    if result.returncode:
        raise Unavailable(
            f"{USER} cannot read what grading needs ({result.stderr.strip()})"
        )


def give(path):
    """Make ``path`` (recursively) the user's, as an instructor's own files."""
    uid, gid = account()
    for root, folders, files in os.walk(path):
        os.chown(root, uid, gid)
        for name in folders + files:
            os.chown(os.path.join(root, name), uid, gid, follow_symlinks=False)
