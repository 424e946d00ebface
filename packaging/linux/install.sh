#!/bin/sh
# LabGPU per-user install from the Linux tarball (no root needed, any distribution).
#
#   ./install.sh                  install (or update) for this user
#   ./install.sh --uninstall      remove the program; your settings, data and keyring secrets stay
#   ./install.sh --uninstall --purge   also delete LabGPU's settings, data, cache and logs
#
# Installs the app to ~/.local/opt/labgpu, a `labgpu` command to ~/.local/bin, the menu entry to
# ~/.local/share/applications and icons to ~/.local/share/icons/hicolor. After installing, the same
# script is kept as ~/.local/opt/labgpu/install.sh so that you can uninstall later.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
base="${HOME:?HOME is not set}/.local"
appdir="$base/opt/labgpu"
bindir="$base/bin"
datadir="${XDG_DATA_HOME:-$HOME/.local/share}"
desktop="$datadir/applications/labgpu.desktop"
icons="$datadir/icons/hicolor"

say() { printf 'labgpu install: %s\n' "$*"; }
fail() { printf 'labgpu install: %s\n' "$*" >&2; exit 1; }

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$datadir/applications" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$icons/index.theme" ]; then
        gtk-update-icon-cache -q -t "$icons" 2>/dev/null || true
    fi
}

uninstall() {
    purge=$1
    if [ -L "$bindir/labgpu" ]; then
        case $(readlink "$bindir/labgpu") in
            "$appdir"/*) rm -f "$bindir/labgpu" ;;
            *) say "left $bindir/labgpu alone: it is not LabGPU's launcher" ;;
        esac
    fi
    rm -f "$desktop"
    for icon in "$icons"/*/apps/labgpu.png "$icons"/scalable/apps/labgpu.svg; do
        [ -e "$icon" ] && rm -f "$icon"
    done
    rm -rf "$appdir"
    refresh_caches
    say "LabGPU is uninstalled."
    config="${XDG_CONFIG_HOME:-$HOME/.config}/labgpu"
    data="$datadir/labgpu"
    cache="${XDG_CACHE_HOME:-$HOME/.cache}/labgpu"
    state="${XDG_STATE_HOME:-$HOME/.local/state}/labgpu"
    if [ "$purge" = yes ]; then
        rm -rf "$config" "$data" "$cache" "$state"
        say "deleted LabGPU's settings, data, cache and logs. Cloud keys in your keyring were not touched:"
        say "remove them in Passwords and Keys (seahorse) or KWallet, entries named 'labgpu'."
    else
        say "your settings and data are kept in $config and $data"
        say "(run '$0 --uninstall --purge' to delete them too)."
    fi
}

install() {
    [ -x "$here/LabGPU/labgpu" ] || fail "no LabGPU/labgpu next to this script: unpack the whole tarball first"
    share="$here/LabGPU/_internal/share"
    mkdir -p "$base/opt" "$bindir" "$datadir/applications"
    rm -rf "$appdir.new"
    cp -R "$here/LabGPU" "$appdir.new"
    cp "$here/install.sh" "$appdir.new/install.sh"
    chmod 755 "$appdir.new/install.sh"
    rm -rf "$appdir"
    mv "$appdir.new" "$appdir"
    ln -sfn "$appdir/labgpu" "$bindir/labgpu"
    # The menu entry runs the installed program by its full path (~/.local/bin is not always on PATH).
    sed -e "s|^Exec=labgpu|Exec=\"$appdir/labgpu\"|" -e "s|^TryExec=.*||" \
        "$share/applications/labgpu.desktop" > "$desktop.tmp"
    mv "$desktop.tmp" "$desktop"
    for dir in "$share"/icons/hicolor/*/apps; do
        size=$(basename "$(dirname "$dir")")
        mkdir -p "$icons/$size/apps"
        cp "$dir"/labgpu.* "$icons/$size/apps/"
    done
    refresh_caches
    version=$("$appdir/labgpu" --version 2>/dev/null || true)
    say "installed ${version:-LabGPU} in $appdir"
    say "start it from your applications menu, or run: $bindir/labgpu"
    case ":${PATH:-}:" in
        *":$bindir:"*) ;;
        *) say "note: $bindir is not on your PATH; add it to run 'labgpu' by name." ;;
    esac
    say "to uninstall later: $appdir/install.sh --uninstall"
}

action=install
purge=no
for arg in "$@"; do
    case $arg in
        --uninstall) action=uninstall ;;
        --purge) purge=yes ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown option $arg (try --help)" ;;
    esac
done
if [ "$purge" = yes ] && [ "$action" != uninstall ]; then
    fail "--purge goes with --uninstall"
fi
if [ "$action" = uninstall ]; then
    uninstall "$purge"
else
    install
fi
