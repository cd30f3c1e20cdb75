#!/usr/bin/env bash
# Lays out the workspace as it is published: a copy of the repository in which the 3D crates
# own the files they share with the 2D ones.
#
#   tools/stage-packages.sh OUT     then, in OUT: cargo package / cargo publish -p <crate>
#
# In the repository, `flock_core3d`, `flock_gpu3d` and `bevy_flock3d` compile the 2D crates' source through
# paths that leave their own folder (`[lib] path = "../../src/lib.rs"`, `[[test]] path`,
# `#[path = "../../../examples/support/mod.rs"]`), so that one source serves both dimensions
# and a plain checkout loads on every OS (no symlinks). A package holds only its own folder, so
# here each such path is followed, the file (with the module folder it belongs to) is copied to
# the same place inside the crate, and the path is rewritten to point there. The script then
# checks that no `#[path]`, `include_str!`, `include_bytes!` or manifest path of a staged crate
# still leaves its folder.
set -euo pipefail

out=${1:?usage: tools/stage-packages.sh OUT}
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The work tree as a clone of it would be: the tracked files, less those deleted in the work
# tree, and the new (not ignored) ones. Any file that cannot be copied stops the script.
declare -A deleted=()
while IFS= read -r -d '' path; do
    deleted[$path]=1
done < <(cd "$repo" && git ls-files -z --deleted)
files=()
while IFS= read -r -d '' path; do
    [[ -n ${deleted[$path]:-} ]] || files+=("$path")
done < <(cd "$repo" && git ls-files -z --cached --others --exclude-standard --deduplicate)
(cd "$repo" && printf '%s\0' "${files[@]}" | xargs -0 cp --parents -t "$out")

# Copies the file PATH (relative to the crate, under SHARED_ROOT) into the crate at the same
# place below SHARED_ROOT, with the module files it needs: `src/...` brings the whole source
# tree; a file in a module folder (`tests/common/mod.rs`, `examples/support/mod.rs`) brings that
# folder; a file at the top of `tests/` or `examples/` brings the module folders beside it (a
# test's `common/`). What is already there must be the same.
copy_in() {
    local crate=$1 shared_root=$2 path=$3
    local shared
    shared=$(realpath -m "$crate/$shared_root")
    local inside=${path#"$shared_root"/}
    local folder
    folder=$(dirname "$inside")
    if [[ ${inside%%/*} == src ]]; then
        copy_same "$shared/src" "$crate/src"
    elif [[ $folder == */* ]]; then
        copy_same "$shared/$folder" "$crate/$folder"
    else
        copy_same "$shared/$inside" "$crate/$inside"
        local sub
        for sub in "$shared/$folder"/*/; do
            if [[ -d $sub ]]; then
                copy_same "${sub%/}" "$crate/$folder/$(basename "$sub")"
            fi
        done
    fi
}

# Copies a file or folder, failing where the crate already has something else under that name.
copy_same() {
    local from=$1 to=$2
    if [[ -e $to ]]; then
        diff -rq "$from" "$to" >/dev/null && return
        echo "stage-packages: ${to#"$out"/} already exists and differs from ${from#"$out"/}" >&2
        exit 1
    fi
    mkdir -p "$(dirname "$to")"
    cp -r "$from" "$to"
}

# stage CRATE SHARED_ROOT: CRATE (relative to the workspace) compiles files under SHARED_ROOT
# (relative to CRATE, e.g. `../..`).
stage() {
    local crate="$out/$1" shared_root=$2
    local prefix="$shared_root/"
    # The manifest: each quoted path under the shared root.
    local manifest="$crate/Cargo.toml"
    { grep -o "\"$prefix[^\"]*\"" "$manifest" || true; } | tr -d '"' | sort -u | while read -r path; do
        copy_in "$crate" "$shared_root" "$path"
    done
    sed -i "s#\"$prefix#\"#g" "$manifest"
    # The crate's own Rust files (not the copied source): `#[path]` and includes one folder
    # deeper climb one `../` more.
    find "$crate" -name '*.rs' -not -path "$crate/src/*" -print0 | while IFS= read -r -d '' file; do
        local relative=${file#"$crate"/}
        local depth
        depth=$(tr -cd '/' <<<"$relative" | wc -c)
        local up=""
        for ((i = 0; i < depth; i++)); do up+="../"; done
        { grep -o "\"$up$prefix[^\"]*\"" "$file" || true; } | tr -d '"' | sort -u | while read -r path; do
            copy_in "$crate" "$shared_root" "${path#"$up"}"
        done
        sed -i "s#\"$up$prefix#\"$up#g" "$file"
    done
    # The shared source names the 3D crate's own files (its README) through its folder.
    if [[ -d "$crate/src" ]]; then
        local own
        own=$(realpath --relative-to="$(realpath -m "$crate/$shared_root")" "$crate")
        { grep -rl "\"\.\./$own/" "$crate/src" || true; } | xargs -r sed -i "s#\"\.\./$own/#\"../#g"
    fi
}

stage crates/flock_core3d ../flock_core
stage crates/bevy_flock3d ../..
stage crates/flock_gpu3d ../flock_gpu

# No staged crate may still reach outside its folder.
status=0
for crate in crates/flock_core3d crates/bevy_flock3d crates/flock_gpu3d; do
    dir="$out/$crate"
    while IFS= read -r -d '' file; do
        while read -r path; do
            [[ -z $path ]] && continue
            target=$(realpath -m "$(dirname "$file")/$path")
            if [[ $target != "$dir"/* ]]; then
                echo "stage-packages: ${file#"$out"/} names $path, outside its package" >&2
                status=1
            elif [[ ! -e $target ]]; then
                echo "stage-packages: ${file#"$out"/} names $path, which is missing" >&2
                status=1
            fi
        done < <({ grep -oE '(#\[path = |include_str!\(|include_bytes!\()"[^"]+"' "$file" || true; } |
            sed -E 's/.*"([^"]+)"/\1/')
    done < <(find "$dir" -name '*.rs' -print0)
    while read -r path; do
        target=$(realpath -m "$dir/$path")
        [[ $target == "$dir"/* ]] || { echo "stage-packages: $crate/Cargo.toml names $path, outside its package" >&2; status=1; }
    done < <(grep -E '^path = ' "$dir/Cargo.toml" | sed -E 's/^path = "([^"]+)".*/\1/')
done
exit $status
