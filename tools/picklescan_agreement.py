"""Runs our scan (build/native/pickle_scan) and picklescan's own scanner side by side over
picklescan's test files, and counts the files on which they agree (issue 35's external check):
every global picklescan lists is listed by us; none it calls dangerous or suspicious is `safe`
for us; no file it calls infected is `safe` for us; its two PyTorch files are `safe`.

Usage (never commit picklescan's test files: they are exploit samples):
  git -C <picklescan clone> archive HEAD src tests | tar -x -C /tmp/picklescan
  /usr/bin/python3 tools/picklescan_agreement.py /tmp/picklescan [build/native/pickle_scan]
"""

import json
import os
import subprocess
import sys


def main():
    root = sys.argv[1]
    ours_bin = sys.argv[2] if len(sys.argv) > 2 else 'build/native/pickle_scan'
    sys.path.insert(0, os.path.join(root, 'src'))
    from picklescan.scanner import SafetyLevel, scan_file_path  # picklescan's own code, read in place

    files = []
    for folder in ('tests/data', 'tests/data2'):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if not name.endswith('.7z'):  # we read no 7z archives
                files.append(os.path.join(root, folder, name))
    out = subprocess.run([ours_bin, *files], capture_output=True, text=True)
    ours = {r['file']: r for r in map(json.loads, out.stdout.splitlines())}
    agree = 0
    for path in files:
        theirs = scan_file_path(path)
        mine = ours[path]
        listed = {(g['module'], g['name']): g['safety'] for g in mine['globals']}
        problems = []
        for g in theirs.globals:
            key = (g.module, g.name)
            if 'unknown' in g.module or 'unknown' in g.name:  # picklescan's word for a name no one can read
                if not any(s == 'unsafe' for s in listed.values()):
                    problems.append(f'{g.module}.{g.name}: no unsafe global listed')
                continue
            if key not in listed:
                problems.append(f'{g.module}.{g.name} not listed')
            elif g.safety != SafetyLevel.Innocuous and listed[key] == 'safe':
                problems.append(f'{g.module}.{g.name} is {g.safety.value} for picklescan, safe for us')
        if theirs.infected_files > 0 and mine['verdict'] == 'safe':
            problems.append('infected for picklescan, safe for us')
        if os.path.basename(path) in ('pytorch_model.bin', 'new_pytorch_model.bin') and mine['verdict'] != 'safe':
            problems.append(f"verdict {mine['verdict']}, not safe")
        if problems:
            print(f"DIFFER {os.path.relpath(path, root)} ({mine['format']}, {mine['verdict']}): {'; '.join(problems)}")
        else:
            agree += 1
    print(f'agree on {agree} of {len(files)} files (the .7z left out)')
    return 0 if agree == len(files) else 1


if __name__ == '__main__':
    sys.exit(main())
