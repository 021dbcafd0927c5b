#!/usr/bin/env bash
# Builds .devkit/ (git-ignored): what benchmarks/device_run.sh needs on the 16-core device
# machine, which has Python 3.12 but no network, no PostgreSQL, no Redis and none of the web
# extra's packages.
#
#   bash benchmarks/device_kit.sh        # from the repository root; 3 to 5 minutes here
#
# It makes, from this checkout:
#   .devkit/wheels/   cp312 manylinux wheels of everything `pip install ".[web,scale]"` needs,
#                     plus httpx (benchmarks/server_latency.py's client), but LEAVE_OUT: the
#                     whole dependency closure, resolved together, so that no version of the
#                     device's own packages can clash;
#   .devkit/panal/    panal's compiled (mypyc) wheel for CPython 3.12 (PYTHON312 builds it);
#   .devkit/services.tar.xz  PostgreSQL 15 (the server, initdb, pg_ctl, psql, its modules and
#                     share folder) and redis-server/redis-cli, in their Debian layout under
#                     root/, and under lib/ every shared library they load but glibc's (ICU 72,
#                     libldap 2.5, OpenSSL...), for LD_LIBRARY_PATH of those processes only;
#   .devkit/MANIFEST.txt  what is in it;
# and copies the nokamute binary (NOKAMUTE, default ../shared/engines/nokamute) to .engines/.
# Device call: carry [".devkit", ".engines"] (docs/benchmarks.md, "16-core device run").
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON312="${PYTHON312:-$HOME/.pyenv/versions/3.12.1/bin/python3.12}"
NOKAMUTE="${NOKAMUTE:-../shared/engines/nokamute}"
PG_VERSION="${PG_VERSION:-15}"
SOURCE_ONLY="${SOURCE_ONLY:-http-ece}"  # requirements with no wheel on PyPI (pure Python)
LEAVE_OUT="${LEAVE_OUT:-pyicu-wheels}"
KIT=.devkit
started=$(date +%s)
step() { echo "[$(( $(date +%s) - started )) s] $*"; }

rm -rf "$KIT"
mkdir -p "$KIT/wheels" "$KIT/panal" .engines

step "dependency wheels (cp312, manylinux x86_64)"
# The requirements of the web and scale extras, read from pyproject.toml, and httpx.
# LEAVE_OUT names the ones left out: pyicu-wheels (18 MiB, ICU inside) would take the call over
# its 64 MiB, and the benchmarks never import it (only a new account's name check does).
mapfile -t requirements < <(LEAVE_OUT="$LEAVE_OUT" "$PYTHON312" - <<'EOF'
import os
import re
import tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
extras = project["optional-dependencies"]
left_out = set(os.environ["LEAVE_OUT"].split())
for requirement in [*project["dependencies"], *extras["web"], *extras["scale"], "httpx"]:
    if re.match(r"[A-Za-z0-9._-]+", requirement)[0] not in left_out:
        print(requirement)
EOF
)
platforms=()
for tag in manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux_2_24_x86_64 \
    manylinux_2_27_x86_64 manylinux_2_28_x86_64 manylinux_2_31_x86_64 manylinux_2_34_x86_64 \
    manylinux_2_35_x86_64 manylinux_2_39_x86_64 manylinux1_x86_64 linux_x86_64; do
    platforms+=(--platform "$tag")
done
# Pure-Python packages published as source only (pywebpush's http-ece) are made wheels first,
# where the download below finds them.
"$PYTHON312" -m pip wheel -q --no-deps --no-binary=:all: -w "$KIT/wheels" $SOURCE_ONLY
"$PYTHON312" -m pip download -q --only-binary=:all: --python-version 3.12 --implementation cp \
    --abi cp312 --abi abi3 --abi none "${platforms[@]}" --find-links "$KIT/wheels" \
    -d "$KIT/wheels" "${requirements[@]}" 2>&1 | { grep -v "^WARNING: Location 'file:" || true; }

step "panal's compiled build for CPython 3.12"
PANAL_MYPYC=1 nice -n 10 "$PYTHON312" -m pip wheel -q --no-deps -w "$KIT/panal" .
rm -rf build  # setuptools' intermediate files

step "PostgreSQL $PG_VERSION and Redis with their shared libraries"
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
root="$staging/root"
pg_bin=/usr/lib/postgresql/$PG_VERSION/bin
pg_lib=/usr/lib/postgresql/$PG_VERSION/lib
mkdir -p "$root$pg_bin" "$root$pg_lib" "$root/usr/bin" "$root/usr/share/postgresql" \
    "$staging/lib"
for program in postgres initdb pg_ctl pg_isready psql; do
    cp -L "$pg_bin/$program" "$root$pg_bin/"
done
# The server's modules (plpgsql, snowball, encoding conversions...), not the JIT's bitcode.
find "$pg_lib" -maxdepth 1 -name '*.so' ! -name 'llvmjit*' -exec cp -L {} "$root$pg_lib/" \;
cp -rL "/usr/share/postgresql/$PG_VERSION" "$root/usr/share/postgresql/"
cp -L /usr/bin/redis-server /usr/bin/redis-cli "$root/usr/bin/"
# Debian's PostgreSQL reads time zones from /usr/share/zoneinfo: UTC is enough (the run sets
# TZ=UTC); device_run.sh adds it there when the machine has none.
mkdir -p "$root/usr/share/zoneinfo/Etc"
cp -L /usr/share/zoneinfo/UTC "$root/usr/share/zoneinfo/UTC"
cp -L /usr/share/zoneinfo/Etc/UTC "$root/usr/share/zoneinfo/Etc/UTC"
# Every library the programs and modules load, but glibc's own (the device's newer glibc runs
# binaries built for this one).
glibc='^(ld-linux-x86-64|libc|libm|libmvec|libdl|libpthread|librt|libresolv|libutil|libanl)\.so'
find "$root" -type f -perm -u+x -o -type f -name '*.so' | while read -r elf; do
    ldd "$elf" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
done | sort -u | while read -r library; do
    if ! basename "$library" | grep -Eq "$glibc"; then
        cp -L "$library" "$staging/lib/"
    fi
done
tar -C "$staging" -cJf "$KIT/services.tar.xz" root lib

step "nokamute"
cp "$NOKAMUTE" .engines/nokamute
chmod +x .engines/nokamute

{
    echo "panal device kit, built $(date -u '+%Y-%m-%d %H:%M UTC') from $(git rev-parse --short HEAD)"
    echo "wheels:"
    ls "$KIT/wheels" | sed 's/^/  /'
    echo "panal: $(ls "$KIT/panal")"
    echo "PostgreSQL: $("$pg_bin/postgres" --version); Redis: $(redis-server --version)"
    echo "libraries (lib/): $(ls "$staging/lib" | tr '\n' ' ')"
    echo "sizes:"
    du -sh "$KIT/wheels" "$KIT/panal" "$KIT/services.tar.xz" .engines | sed 's/^/  /'
    echo "  total $(du -sh "$KIT" | cut -f1) (.devkit), services unpacked $(du -sh "$staging" | cut -f1)"
} > "$KIT/MANIFEST.txt"
cat "$KIT/MANIFEST.txt"
step "done"
