"""Transfers between a host and a bucket that run ON the host, with presigned URLs the laptop made
(:mod:`app.cloud.storage.presign`): a dataset goes bucket → instance at in-region speed and the rented
machine never holds a credential. No SDK here: this module gets lists of URLs.

Rules (each kept in the scripts below):

* **URLs travel on stdin only**, never on a command line (``/proc/PID/cmdline`` and ``ps`` show argv
  to every user of the host) and never in a file: every presigned URL carries the access key ID in
  its query. curl reads its URL from a config on a pipe (``-K``), GNU wget from ``-i -``, python3 from
  its stdin. BusyBox wget takes a URL only on its command line, so it is never used; and it has no
  ``--method``, so an upload needs curl or python3 (:data:`NO_UPLOADER` says so).
* **The host's own settings stay out of it**: curl runs with ``-q`` (no ``~/.curlrc``), GNU wget with
  ``--no-config``; the host's ``http_proxy``/``https_proxy`` are used as it has them unless the account
  names an ``instance_proxy`` (then that one).
* **One probe per connection** (:func:`probe_tools`): curl, GNU wget, python3; the tool used is said
  in the result (``Tools.summary``).
* **Names are checked on the laptop** (:func:`check_rel`: ``key_problem`` and ``unsafe_path``; a name
  with a tab or newline never reaches the line protocol) **and quoted on the host** (always ``"$var"``
  below the destination folder, which is anchored — absolute or ``./`` — so never an option).
* **Temp names, then rename**: a download goes to ``.NAME.labgpu-part`` in the same folder and is
  renamed only when the HTTP status is 2xx and its size is the object's size; anything else is removed
  and reported. An upload reports the ETag the service answered.
* **The host's words are data**: every answer line starts with a per-call nonce (a login banner cannot
  forge it), bodies are cut to a few hundred bytes, control characters replaced, and any
  ``X-Amz-Credential``/``AWSAccessKeyId`` value in them blanked before it is shown.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from app.core.buckets import key_problem
from app.core.errors import InputError, LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.syncplan import remote_target, unsafe_path
from app.remote.ssh import Connection

GET, PUT, PART = "G", "P", "U"
MAX_BODY = 600  # bytes of an error answer the host sends back per file
_CTRL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SECRETISH = re.compile(r"(X-Amz-Credential=|X-Amz-Signature=|X-Amz-Security-Token=|<AWSAccessKeyId>|"
                        r"<StringToSign>|<CanonicalRequest>|<SignatureProvided>)[^<&\s]*", re.I)

MSG_BAD_NAME = QT_TRANSLATE_NOOP("LabGPU", "The object path {key!r} is refused for the instance: {why}.")
HINT_BAD_NAME = QT_TRANSLATE_NOOP("LabGPU", "Rename the object (plain folder names separated by '/'), or sync a "
                                            "prefix without it.")
WHY_UNSAFE = QT_TRANSLATE_NOOP("LabGPU", "it is not a safe file name on the instance")
MSG_NO_TOOL = QT_TRANSLATE_NOOP("LabGPU", "{host} has no program LabGPU can fetch with (curl, GNU wget or "
                                          "python3).")
HINT_NO_TOOL = QT_TRANSLATE_NOOP("LabGPU", "Install curl on the instance (e.g. sudo apt-get install curl), or "
                                           "sync through this computer instead.")
NO_UPLOADER = QT_TRANSLATE_NOOP("LabGPU", "{host} has neither curl nor python3, which LabGPU needs to upload "
                                          "from it to a bucket (BusyBox wget cannot send a PUT).")
HINT_NO_UPLOADER = QT_TRANSLATE_NOOP("LabGPU", "Install curl or python3 on the instance, or download the folder "
                                               "to this computer and upload it from here.")
MSG_HOST_ANSWER = QT_TRANSLATE_NOOP("LabGPU", "{host} gave an answer LabGPU cannot read while transferring "
                                              "with the bucket.")
HINT_HOST_ANSWER = QT_TRANSLATE_NOOP("LabGPU", "Try again; if it repeats, check that /bin/sh works on the host.")


@dataclass(frozen=True)
class Tools:
    """What the host can transfer with (found once per connection)."""

    curl: bool = False
    wget: str = ""  # "gnu" | "busybox" | ""
    python3: bool = False

    @property
    def getter(self) -> str:
        """The program downloads use: "curl", "python3", "wget" (GNU) or "" (none)."""
        if self.curl:
            return "curl"
        if self.python3:
            return "python3"
        return "wget" if self.wget == "gnu" else ""

    @property
    def putter(self) -> str:
        """The program uploads use: "curl", "python3" or "" (none: BusyBox/GNU wget is not used)."""
        if self.curl:
            return "curl"
        return "python3" if self.python3 else ""

    def summary(self) -> dict[str, object]:
        return {"curl": self.curl, "wget": self.wget, "python3": self.python3,
                "download_with": self.getter, "upload_with": self.putter}


_PROBE = r"""c=; command -v curl >/dev/null 2>&1 && curl --version >/dev/null 2>&1 && c=curl
w=; if command -v wget >/dev/null 2>&1; then
  case "$(wget --version 2>&1 | head -n 1)" in *"GNU Wget"*) w=gnu;; *) w=busybox;; esac; fi
p=; command -v python3 >/dev/null 2>&1 && python3 -c 'import urllib.request' >/dev/null 2>&1 && p=python3
printf '@@%s tools curl=%s wget=%s python3=%s\n' "$1" "$c" "$w" "$p"
"""

# $1 nonce, $2 destination folder (anchored), $3 tool (curl|wget); stdin: one line per transfer,
# fields split by TAB: op, index, a, b, name, url (op G: a=size; P: a=size; U: a=offset, b=length).
# A first line "X<TAB>proxy" sets an HTTP proxy (a test peer), else none.
_SH = r"""N=$1; D=$2; M=$3
T=$(printf '\t')
say() { printf '@@%s %s\n' "$N" "$*"; }
flat() { head -c MAXBODY 2>/dev/null | tr '\000-\037' ' '; }
X=""
field() { F=${L%%"$T"*}; L=${L#*"$T"}; }
cfg() { printf 'url = "%s"\n' "$u"; if [ -n "$X" ]; then printf 'proxy = "%s"\n' "$X"; fi; }
while IFS= read -r L; do
  field; op=$F
  if [ "$op" = X ]; then X=$L; continue; fi
  field; i=$F; field; a=$F; field; b=$F; field; r=$F; u=$L
  case "$i$a$b" in *[!0-9]*) say "bad $i"; continue;; esac
  f="$D/$r"
  case "$op" in
  G)
    dir=${f%/*}; base=${f##*/}
    if [ ! -d "$dir" ] && ! mkdir -p -- "$dir" 2>/dev/null; then say "fail $i 0 cannot create the folder"; continue; fi
    if [ -d "$f" ]; then say "fail $i 0 a folder has that name"; continue; fi
    p="$dir/.$base.labgpu-part"
    if ! : > "$p"; then say "fail $i 0 cannot write in the folder"; continue; fi
    if [ "$M" = curl ]; then
      out=$(cfg | curl -q -sS -K - -H 'Expect:' -o "$p" -w '%{http_code}' 2>&1)
      code=${out#"${out%???}"}  # the last three characters: the HTTP status
    else
      if [ -n "$X" ]; then export http_proxy="$X"; fi
      out=$(printf '%s\n' "$u" | wget --no-config -q -S --content-on-error -O "$p" -i - 2>&1)
      code=$(printf '%s\n' "$out" | sed -n 's/^ *HTTP\/[0-9.]* \([0-9][0-9][0-9]\).*/\1/p' | tail -n 1)
    fi
    case "$code" in
    2??)
      s=$(wc -c < "$p" 2>/dev/null); s=$((s + 0))
      if [ "$s" = "$a" ] && mv -f -- "$p" "$f"; then say "ok $i $s"
      else rm -f -- "$p"; say "fail $i $code size ${s:-?} instead of $a"; fi ;;
    *)
      body=$(if [ -s "$p" ]; then flat < "$p"; else printf '%s' "$out" | flat; fi)
      rm -f -- "$p"; say "fail $i ${code:-0} $body" ;;
    esac ;;
  P|U)
    if [ ! -f "$f" ]; then say "fail $i 0 not a file"; continue; fi
    if [ "$op" = P ]; then
      out=$(cfg | { curl -q -sS -K /dev/fd/3 -H 'Expect:' -T "$f" -D - \
            -o - -w '\n@@code %{http_code}\n' 3<&0 < /dev/null; } 2>&1)
    else
      out=$(cfg | { tail -c +$((a + 1)) "$f" | head -c "$b" | \
            curl -q -sS -K /dev/fd/3 -H 'Expect:' -H 'Transfer-Encoding:' -H "Content-Length: $b" -T - -D - -o - \
            -w '\n@@code %{http_code}\n'; } 3<&0 2>&1)
    fi
    code=$(printf '%s\n' "$out" | sed -n 's/^@@code \([0-9]*\)$/\1/p' | tail -n 1)
    etag=$(printf '%s\n' "$out" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]:[ ]*//p' | head -n 1 | flat)
    case "$code" in
    2??) say "ok $i ${b:-$a} $etag" ;;
    *) say "fail $i ${code:-0} $(printf '%s' "$out" | grep -v '^@@code' | flat)" ;;
    esac ;;
  *) say "bad $i" ;;
  esac
done
""".replace("MAXBODY", str(MAX_BODY))

# The same protocol in one python3 process (a host without curl): argv nonce, folder; stdin lines.
_PY = r"""
import os, sys, urllib.request, urllib.error
N, D = sys.argv[1], sys.argv[2]
MAXB = MAXBODY
def say(t):
    sys.stdout.write("@@%s %s\n" % (N, t)); sys.stdout.flush()
def flat(b):
    return "".join(c if 32 <= ord(c) < 127 else " " for c in b[:MAXB].decode("utf-8", "replace"))
class Part:
    def __init__(self, f, n):
        self.f, self.left = f, n
    def read(self, k=65536):
        if self.left <= 0:
            return b""
        d = self.f.read(min(k, self.left)); self.left -= len(d); return d
opener = urllib.request.build_opener()
for line in sys.stdin.buffer:
    fs = line.rstrip(b"\n").decode("utf-8", "surrogateescape").split("\t")
    if fs[0] == "X":
        p = fs[1] if len(fs) > 1 else ""
        if p:
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": p, "https": p}))
        continue
    if len(fs) != 6 or not (fs[1] + fs[2] + fs[3]).isdigit():
        say("bad %s" % flat(fs[1].encode()) if len(fs) > 1 else "bad ?"); continue
    op, i, a, b, r, u = fs[0], fs[1], int(fs[2]), int(fs[3]), fs[4], fs[5]
    f = os.path.join(D, r)
    try:
        if op == "G":
            d, base = os.path.split(f)
            os.makedirs(d, exist_ok=True)
            if os.path.isdir(f):
                say("fail %s 0 a folder has that name" % i); continue
            p = os.path.join(d, "." + base + ".labgpu-part")
            n = 0
            with opener.open(urllib.request.Request(u), timeout=120) as resp, open(p, "wb") as out:
                while True:
                    blk = resp.read(1 << 20)
                    if not blk:
                        break
                    out.write(blk); n += len(blk)
            if n != a:
                os.unlink(p); say("fail %s %s size %d instead of %d" % (i, resp.status, n, a)); continue
            os.replace(p, f); say("ok %s %d" % (i, n))
        elif op in ("P", "U"):
            if not os.path.isfile(f):
                say("fail %s 0 not a file" % i); continue
            with open(f, "rb") as src:
                if op == "U":
                    src.seek(a); body, n = Part(src, b), b
                else:
                    body, n = src, os.fstat(src.fileno()).st_size
                req = urllib.request.Request(u, data=body, method="PUT", headers={"Content-Length": str(n),
                                             "Content-Type": "application/octet-stream"})
                with opener.open(req, timeout=300) as resp:
                    resp.read(MAXB)
                    say("ok %s %d %s" % (i, n, flat((resp.headers.get("ETag") or "").encode())))
        else:
            say("bad %s" % i)
    except urllib.error.HTTPError as e:
        try:
            body = e.read(MAXB)
        except Exception:
            body = b""
        if op == "G":
            try:
                os.unlink(p)
            except OSError:
                pass
        say("fail %s %d %s" % (i, e.code, flat(body)))
    except Exception as e:
        if op == "G":
            try:
                os.unlink(p)
            except Exception:
                pass
        say("fail %s 0 %s" % (i, flat(str(e).encode())))
""".replace("MAXBODY", str(MAX_BODY))


@dataclass(frozen=True)
class Item:
    """One transfer on the host: ``op`` GET (bucket → ``rel``), PUT (``rel`` → bucket) or PART (bytes
    ``offset``..``offset+length`` of ``rel`` → one part); ``url`` the presigned link; ``size`` the
    object's (GET) or file's (PUT) size."""

    op: str
    rel: str
    url: str
    size: int = 0
    offset: int = 0
    length: int = 0


@dataclass(frozen=True)
class Outcome:
    """What the host said about one item: ``ok``; bytes moved; the ETag (uploads); or the HTTP status
    (0: no answer) and why (bounded, plain, credential-free)."""

    index: int
    ok: bool
    nbytes: int = 0
    etag: str = ""
    http: int = 0
    why: str = ""


def _host(conn: object) -> str:
    return str(getattr(getattr(conn, "record", None), "name", "?"))


def plain(text: str, limit: int = 300) -> str:
    """A host's or a service's text as one bounded plain line, with anything credential-like blanked."""
    text = _SECRETISH.sub(lambda m: m.group(1) + "…", str(text))
    return _CTRL.sub(" ", text).strip()[:limit]


def check_rel(rel: str) -> str:
    """``rel`` when it may become a file name below the destination on the host; InputError otherwise
    (a key with '..', a leading '/', a control character — tabs and newlines too — or a name that
    is not safe on the host)."""
    why = key_problem(rel)
    if why is None and unsafe_path(rel):
        why = WHY_UNSAFE
    if why is not None:
        from app.core.i18n import translate

        raise InputError(MSG_BAD_NAME, HINT_BAD_NAME, code="BadObjectKey", key=plain(rel, 200), why=translate(why))
    return rel


def _check_url(url: str) -> str:
    # a presigned URL is percent-encoded: no quote, backslash, space or control character can be in it
    if not re.match(r"^https?://[!#-\[\]-~]+$", url) or '"' in url:
        raise ValueError("not a presigned URL")
    return url


def probe_tools(conn: Connection) -> Tools:
    """curl / GNU wget / python3 on the host (one exec)."""
    nonce = secrets.token_hex(8)
    rc, out, _err = conn.exec(["sh", "-c", _PROBE, "labgpu-tools", nonce], timeout=60, max_output=64 * 1024)
    mark = f"@@{nonce} tools "
    at = out.find(mark)
    if rc != 0 or at < 0:
        raise LabGpuError(MSG_HOST_ANSWER, HINT_HOST_ANSWER, code="PresignedProbe", host=_host(conn))
    words = dict(w.partition("=")[::2] for w in out[at + len(mark):].splitlines()[0].split())
    wget = words.get("wget", "")
    return Tools(curl=words.get("curl") == "curl", wget=wget if wget in ("gnu", "busybox") else "",
                 python3=words.get("python3") == "python3")


def need_tool(conn: Connection, tools: Tools, upload: bool) -> str:
    """The program for this direction, or a LabGpuError saying what the host lacks and what to do."""
    if upload:
        if not tools.putter:
            raise LabGpuError(NO_UPLOADER, HINT_NO_UPLOADER, code="NoUploader", host=_host(conn))
        return tools.putter
    if not tools.getter:
        raise LabGpuError(MSG_NO_TOOL, HINT_NO_TOOL, code="NoFetcher", host=_host(conn))
    return tools.getter


def stdin_lines(items: Sequence[Item], proxy: str = "") -> bytes:
    """The stdin of one batch (names checked, URLs checked); ``proxy`` first when given."""
    lines = [f"X\t{_check_url(proxy) if proxy else ''}"]
    for i, it in enumerate(items):
        if it.op not in (GET, PUT, PART):
            raise ValueError(it.op)
        check_rel(it.rel)
        a, b = (it.offset, it.length) if it.op == PART else (it.size, 0)
        lines.append(f"{it.op}\t{i}\t{int(a)}\t{int(b)}\t{it.rel}\t{_check_url(it.url)}")
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")


def run_batch(conn: Connection, tool: str, remote_dir: str, items: Sequence[Item], *, proxy: str = "",
              timeout: float = 3600.0) -> list[Outcome]:
    """Run ``items`` on the host with ``tool`` in one exec: the URLs on stdin, one outcome per item (an
    item the host did not answer for is a failure with http 0)."""
    dest = remote_target(remote_dir)
    nonce = secrets.token_hex(8)
    data = stdin_lines(items, proxy)
    if tool == "python3":
        argv = ["python3", "-c", _PY, nonce, dest]
    elif tool in ("curl", "wget"):
        argv = ["sh", "-c", _SH, "labgpu-bucket", nonce, dest, tool]
    else:
        raise ValueError(tool)
    rc, out, err = conn.exec(argv, stdin=data, timeout=timeout, max_output=len(items) * (MAX_BODY + 400) + 65536)
    got: dict[int, Outcome] = {}
    mark = f"@@{nonce} "
    for line in out.splitlines():
        if not line.startswith(mark):
            continue
        word, _, rest = line[len(mark):].partition(" ")
        idx_s, _, rest = rest.partition(" ")
        if not idx_s.isdigit() or int(idx_s) >= len(items):
            continue
        idx = int(idx_s)
        if word == "ok":
            n_s, _, etag = rest.partition(" ")
            got[idx] = Outcome(idx, True, int(n_s) if n_s.isdigit() else 0, plain(etag.strip(), 200))
        elif word == "fail":
            code_s, _, why = rest.partition(" ")
            got[idx] = Outcome(idx, False, http=int(code_s) if code_s.isdigit() and len(code_s) <= 3 else 0,
                               why=plain(why))
    gone = plain(err) or f"exit {rc}"
    return [got.get(i, Outcome(i, False, why=gone)) for i in range(len(items))]


def service_code(why: str) -> str:
    """The S3 error code in an answer body (``<Code>AccessDenied</Code>``), or ""."""
    m = re.search(r"<Code>([A-Za-z0-9.]{1,64})</Code>", why)
    return m.group(1) if m else ""
