#!/usr/bin/env python3
"""The README's commands work as printed, and its pass table is the pipeline.

Fenced code blocks in README.md say what they are:
  ```sh        commands run here, in order, from the top of the tree (a scratch copy:
               links to the sources and to the build directory as build/); each must
               exit 0;
  ```sh-setup  commands that install packages or need root: each line is checked with
               `bash -n`, and each script it names must exist;
  ```text      synopses and sample output, not run.
An indented code block or an unlabelled fence fails the test (it would be untested).
The table under "## Pipeline" lists the passes in `k2s --list-passes` order, all of them.

usage: check_readme.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def blocks(text):
    """(info, [command lines], line number) for each fenced block; fails on indented ones."""
    out, problems = [], []
    lines = text.split("\n")
    i, in_list = 0, False
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^```(.*)$", line)
        if m:
            info, start, body = m.group(1).strip(), i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            if info not in ("sh", "sh-setup", "text"):
                problems.append(f"README.md:{start}: a code block labelled '{info}' "
                                "(use sh, sh-setup or text)")
            out.append((info, body, start))
        elif line.startswith("    ") and line.strip() and i > 0 and not lines[i - 1].strip() \
                and not in_list:
            problems.append(f"README.md:{i + 1}: an indented code block (fence it as sh, "
                            "sh-setup or text so the test knows what to do with it)")
        in_list = bool(re.match(r"^\s*([-*]|\d+\.)\s", line)) or (in_list and line.startswith("  "))
        i += 1
    return out, problems


def commands(body):
    """Lines joined at trailing backslashes; blank lines and # comments skipped."""
    cmds, cur = [], ""
    for line in body:
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        cur += line
        if cur.strip() and not cur.strip().startswith("#"):
            cmds.append(cur.strip())
        cur = ""
    return cmds


def pass_table(text):
    m = re.search(r"^## Pipeline.*?\n(.*?)(?=^## )", text, re.M | re.S)
    if not m:
        return None
    return [r.split("|")[1].strip() for r in m.group(1).split("\n")
            if r.startswith("|") and not r.startswith("|---") and
            r.split("|")[1].strip() not in ("pass", "")]


def main():
    src, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    text = open(os.path.join(src, "README.md")).read()
    found, problems = blocks(text)
    listed = subprocess.run([os.path.join(build, "passes", "k2s"), "--list-passes"],
                            capture_output=True, text=True, check=True).stdout.split("\n")
    pipeline = [l.split()[0] for l in listed if l.strip()]
    table = pass_table(text)
    if table != pipeline:
        problems.append(f"README.md: the pass table lists {table}, the pipeline is {pipeline}")
    scratch = tempfile.mkdtemp(prefix="k2s-readme.")
    try:
        for name in os.listdir(src):
            if name not in ("build", ".git"):
                os.symlink(os.path.join(src, name), os.path.join(scratch, name))
        os.symlink(build, os.path.join(scratch, "build"))
        ran = 0
        for info, body, line in found:
            for cmd in commands(body):
                if info == "sh":
                    r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", cmd], cwd=scratch,
                                       capture_output=True, text=True, timeout=600)
                    ran += 1
                    if r.returncode != 0:
                        problems.append(f"README.md:{line}: `{cmd}` exited {r.returncode}:\n"
                                        f"{r.stdout[-2000:]}{r.stderr[-2000:]}")
                elif info == "sh-setup":
                    r = subprocess.run(["bash", "-n", "-c", cmd], capture_output=True, text=True)
                    if r.returncode != 0:
                        problems.append(f"README.md:{line}: `{cmd}` is not valid shell: "
                                        f"{r.stderr}")
                    for script in re.findall(r"\b(tools/[\w./-]+)", cmd):
                        if not os.path.exists(os.path.join(src, script)):
                            problems.append(f"README.md:{line}: `{cmd}` names {script}, "
                                            "which does not exist")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for p in problems:
        print(p, file=sys.stderr)
    print(f"README: {ran} commands run, {len(table or [])} passes in the table, "
          f"{len(problems)} problem(s)")
    return 1 if problems or not ran else 0


if __name__ == "__main__":
    sys.exit(main())
