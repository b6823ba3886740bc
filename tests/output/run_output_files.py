#!/usr/bin/env python3
"""Output files never harm what is at a path (src/output_files.c).

Each case sets up a directory, runs k2s, and checks what is there afterwards:
symlinks written through (also dangling ones and chains), a symlink planted at
the old predictable temporary name never written through, FIFOs, /dev/null and
process substitutions written in place, regular files replaced keeping their
mode, hard links kept, read-only files refused (or, for root, replaced keeping
the mode), all outputs of a run or none, coinciding outputs refused, real
errno text in messages, nothing left behind.

usage: run_output_files.py PATH/TO/k2s INPUT.spvasm
Runs as any user; the read-only case checks what that user should see.
"""
import os
import stat
import subprocess
import sys
import tempfile
import threading
import time

K2S = None
INPUT = None
failed = 0


def check(name, cond, detail=""):
    global failed
    if cond:
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def k2s(work, *args, preexec=None):
    return subprocess.run([K2S, INPUT, *args], cwd=work, capture_output=True,
                          errors="replace", preexec_fn=preexec)


def read(p):
    try:
        with open(p, "rb") as f:
            return f.read()
    except OSError:
        return None


def leftovers(work):
    return [n for n in os.listdir(work) if ".k2s-" in n or ".tmp" in n]


def main():
    global K2S, INPUT
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    K2S = os.path.abspath(sys.argv[1])
    tmp = tempfile.TemporaryDirectory()
    root = tmp.name
    INPUT = os.path.join(root, "in.spv")
    subprocess.run(["spirv-as", "--target-env", "spv1.0", sys.argv[2], "-o", INPUT], check=True)
    os.umask(0o022)

    # The expected bytes, written to a fresh file.
    ref_dir = os.path.join(root, "ref")
    os.mkdir(ref_dir)
    r = k2s(ref_dir, "-o", "out.spv", "--reflect=out.json", "--descriptormap=out.csv")
    check("new files", r.returncode == 0, r.stderr)
    spv, json_, csv = (read(os.path.join(ref_dir, n)) for n in ("out.spv", "out.json", "out.csv"))
    mode = stat.S_IMODE(os.stat(os.path.join(ref_dir, "out.spv")).st_mode)
    check("new file mode is 0666 less the umask", mode == 0o644, oct(mode))
    check("new files: nothing left behind", not leftovers(ref_dir), leftovers(ref_dir))

    n = 0

    def fresh():
        nonlocal n
        n += 1
        d = os.path.join(root, f"case{n}")
        os.mkdir(d)
        return d

    # A regular file is replaced, keeping its mode.
    d = fresh()
    p = os.path.join(d, "out.spv")
    with open(p, "wb") as f:
        f.write(b"old")
    os.chmod(p, 0o640)
    r = k2s(d, "-o", "out.spv")
    check("existing file replaced", r.returncode == 0 and read(p) == spv, r.stderr)
    check("existing file keeps its mode", stat.S_IMODE(os.stat(p).st_mode) == 0o640)

    # A symlink is written through; the link stays a link.
    d = fresh()
    target = os.path.join(d, "real.spv")
    with open(target, "wb") as f:
        f.write(b"old")
    os.symlink("real.spv", os.path.join(d, "link.spv"))
    r = k2s(d, "-o", "link.spv")
    check("symlink written through", r.returncode == 0 and read(target) == spv, r.stderr)
    check("symlink stays a symlink", os.path.islink(os.path.join(d, "link.spv")))

    # A chain of links into another directory, and a dangling link.
    d = fresh()
    os.mkdir(os.path.join(d, "sub"))
    os.symlink("sub/l2", os.path.join(d, "l1"))
    os.symlink("real.spv", os.path.join(d, "sub", "l2"))
    r = k2s(d, "-o", "l1")
    check("symlink chain written through (relative to each link)",
          r.returncode == 0 and read(os.path.join(d, "sub", "real.spv")) == spv, r.stderr)
    os.symlink("made.spv", os.path.join(d, "dangling"))
    r = k2s(d, "-o", "dangling")
    check("dangling symlink creates its target",
          r.returncode == 0 and read(os.path.join(d, "made.spv")) == spv and
          os.path.islink(os.path.join(d, "dangling")), r.stderr)
    os.symlink("loop", os.path.join(d, "loop"))
    r = k2s(d, "-o", "loop")
    check("symlink loop: error with errno text",
          r.returncode == 1 and "Too many levels of symbolic links" in r.stderr, r.stderr)

    # The attack of issue 15: a symlink planted at the temporary name the old
    # code used (OUT.tmp<pid>) must not be written through. The child plants it
    # knowing its own pid, then becomes k2s.
    d = fresh()
    victim = os.path.join(root, f"victim{n}")
    with open(victim, "wb") as f:
        f.write(b"precious")

    def plant():
        os.symlink(victim, os.path.join(d, f"out.spv.tmp{os.getpid()}"))

    r = k2s(d, "-o", "out.spv", preexec=plant)
    check("planted symlink at the old temporary name not written through",
          r.returncode == 0 and read(victim) == b"precious" and read(os.path.join(d, "out.spv")) == spv,
          r.stderr)

    # A character device stays one (root's k2s used to rename a regular file over
    # /dev/null). As root the test makes its own null device, so it neither depends on
    # nor risks the system's; otherwise it uses /dev/null.
    null = "/dev/null"
    if os.geteuid() == 0:
        null = os.path.join(root, "null")
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    r = k2s(root, "-o", null)
    check("-o a character device (null)", r.returncode == 0 and stat.S_ISCHR(os.stat(null).st_mode),
          r.stderr)

    # A FIFO is written in place, and what comes out is the module.
    d = fresh()
    fifo = os.path.join(d, "pipe")
    os.mkfifo(fifo)
    got = {}

    def reader():
        with open(fifo, "rb") as f:
            got["data"] = f.read()

    t = threading.Thread(target=reader)
    t.start()
    r = k2s(d, "-o", "pipe")
    t.join(30)
    check("FIFO written in place", r.returncode == 0 and got.get("data") == spv and
          stat.S_ISFIFO(os.stat(fifo).st_mode), r.stderr)

    # A process substitution (/dev/fd/N, a link to a pipe).
    d = fresh()
    r = subprocess.run(["bash", "-c", f'"$0" "$1" -o >(cat > "$2")', K2S, INPUT,
                        os.path.join(d, "captured")], capture_output=True, errors="replace")
    for _ in range(100):
        if os.path.exists(os.path.join(d, "captured")) and read(os.path.join(d, "captured")) == spv:
            break
        time.sleep(0.05)
    check("process substitution", r.returncode == 0 and
          read(os.path.join(d, "captured")) == spv, r.stderr)

    # Hard links stay linked (the file is rewritten, not replaced).
    d = fresh()
    a, b = os.path.join(d, "a.spv"), os.path.join(d, "b.spv")
    with open(a, "wb") as f:
        f.write(b"old")
    os.link(a, b)
    r = k2s(d, "-o", "a.spv")
    check("hard link kept", r.returncode == 0 and read(b) == spv and
          os.stat(a).st_ino == os.stat(b).st_ino, r.stderr)

    # A read-only file: refused for a normal user; root may write it, and it
    # keeps its mode.
    d = fresh()
    p = os.path.join(d, "ro.spv")
    with open(p, "wb") as f:
        f.write(b"old")
    os.chmod(p, 0o444)
    r = k2s(d, "-o", "ro.spv")
    if os.geteuid() == 0:
        check("read-only file (root): written, mode kept",
              r.returncode == 0 and read(p) == spv and stat.S_IMODE(os.stat(p).st_mode) == 0o444,
              r.stderr)
    else:
        check("read-only file: Permission denied, untouched",
              r.returncode == 1 and "cannot write 'ro.spv': Permission denied" in r.stderr and
              read(p) == b"old" and stat.S_IMODE(os.stat(p).st_mode) == 0o444, r.stderr)
    check("read-only file: nothing left behind", not leftovers(d), leftovers(d))

    # All or none: an unwritable --reflect leaves -o's old file in place.
    d = fresh()
    p = os.path.join(d, "out.spv")
    with open(p, "wb") as f:
        f.write(b"old")
    r = k2s(d, "-o", "out.spv", "--reflect=missing-dir/r.json")
    check("all or none: failing --reflect leaves the module untouched",
          r.returncode == 1 and read(p) == b"old" and
          "cannot write 'missing-dir/r.json': No such file or directory" in r.stderr, r.stderr)
    r = k2s(d, "-o", "new.spv", "--descriptormap=.")
    check("all or none: a directory as --descriptormap, no module written",
          r.returncode == 1 and not os.path.exists(os.path.join(d, "new.spv")) and
          "cannot write '.': Is a directory" in r.stderr, r.stderr)
    check("all or none: nothing left behind", not leftovers(d), leftovers(d))

    # Coinciding outputs are an error, also through a link.
    d = fresh()
    r = k2s(d, "-o", "x.spv", "--reflect=x.spv")
    check("same path twice", r.returncode == 1 and not os.path.exists(os.path.join(d, "x.spv")) and
          "-o 'x.spv' and --reflect 'x.spv' name the same file" in r.stderr, r.stderr)
    os.symlink("x.spv", os.path.join(d, "y"))
    r = k2s(d, "-o", "x.spv", "--descriptormap=./y")
    check("same file through a link", r.returncode == 1 and
          not os.path.exists(os.path.join(d, "x.spv")) and "name the same file" in r.stderr,
          r.stderr)
    check("coinciding: nothing left behind", not leftovers(d), leftovers(d))

    # Standard output.
    r = subprocess.run([K2S, INPUT, "-o", "-"], capture_output=True)
    check("-o - writes standard output", r.returncode == 0 and r.stdout == spv)

    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
