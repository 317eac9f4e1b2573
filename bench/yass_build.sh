#!/usr/bin/env bash
# bench/yass_build.sh - build the peer solver YASS (Brian Damgaard's YASS
# 2.153, GPL Pascal, from joriswit/YASS) as a console program with Free
# Pascal, outside the repository, for side-by-side runs (docs/benchmarks.md,
# section h40y).  Never part of levelkit: nothing here links to it.
#
# Usage: bench/yass_build.sh SRC_DIR [OUT_DIR]
#   SRC_DIR: a checkout of joriswit/YASS (its
#            app/src/main/jni-pascal/YASS.pas is read, never changed)
#   OUT_DIR: where the patched copy and the binary go (default /tmp/yass/build)
# Two edits to the copy: the console program instead of the Android plug-in
# (CONSOLE_APPLICATION), and YASS's clock (GetTimeMS, wall time through
# GetTickCount64) reading the process's processor time, so that
# `yass LEVEL.sok -maxtime 30 -prompt no` stops after 30 processor seconds,
# as levelkit's LEVELKIT_CLOCK=cpu limits do on a loaded machine.
set -euo pipefail
src=${1:?usage: bench/yass_build.sh SRC_DIR [OUT_DIR]}
out=${2:-/tmp/yass/build}
mkdir -p "$out"
cp "$src/app/src/main/jni-pascal/YASS.pas" "$out/yass.pas"
cd "$out"
python3 - <<'PY'
s = open('yass.pas', encoding='latin-1').read()
edits = [
    ("{///$DEFINE CONSOLE_APPLICATION}", "{$DEFINE CONSOLE_APPLICATION}"),
    ("{$DEFINE PLUGIN_MODULE}                        {a plug-in",
     "{///$DEFINE PLUGIN_MODULE} {a plug-in"),
    ("  Result:=GetTickCount64; {FPC function}", "  Result:=CpuTimeMS;"),
    ("function  GetTimeMS:TTimeMS;\nbegin",
     "{$IFNDEF WINDOWS}\n"
     "function clock_gettime_c(clk:LongInt; tp:Pointer):LongInt; cdecl; external 'c' name 'clock_gettime';\n"
     "function CpuTimeMS:TTimeMS; {CLOCK_PROCESS_CPUTIME_ID = 2}\n"
     "var ts:array[0..1] of Int64;\n"
     "begin ts[0]:=0; ts[1]:=0; clock_gettime_c(2, @ts); Result:=ts[0]*1000+ts[1] div 1000000; end;\n"
     "{$ENDIF}\n\nfunction  GetTimeMS:TTimeMS;\nbegin"),
]
for old, new in edits:
    if s.count(old) != 1:
        raise SystemExit('yass_build: the source is not the one expected (%r)' % old[:40])
    s = s.replace(old, new)
open('yass.pas', 'w', encoding='latin-1').write(s)
PY
fpc -O3 -Mdelphi -k-lc yass.pas -oyass >fpc.log 2>&1 || { tail -20 fpc.log; exit 1; }
echo "$out/yass"
