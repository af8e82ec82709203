"""cdp.py - drive headless Chromium through its DevTools protocol with the
standard library only (no pip, no selenium): a minimal WebSocket client
(RFC 6455: masked client frames, extended lengths, fragments, ping/pong) and
the few protocol calls the HTML report's tests need.

    with Browser() as b:
        page = b.open("file:///tmp/report.html")    # waits for the load event
        page.evaluate("1 + 1")                        # -> 2
        page.console_errors, page.requests            # what the page did
        png = page.screenshot()                       # PNG bytes

Chromium as root needs --no-sandbox; a throwaway profile directory keeps
runs independent. Nothing here opens a network connection except to the
browser's own DevTools port on 127.0.0.1.
"""
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request
import zlib

CHROMIUM = os.environ.get("HIPVIS_CHROMIUM", "chromium")


class CdpError(Exception):
    pass


class WebSocket:
    def __init__(self, url, timeout=30):
        m = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        if not m:
            raise CdpError("bad websocket url " + url)
        host, port, path = m.group(1), int(m.group(2)), m.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        req = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise CdpError("websocket handshake: connection closed")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise CdpError("websocket handshake refused: " + status.decode(errors="replace"))
        self.buf = head.split(b"\r\n\r\n", 1)[1]

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buf)))
            if not chunk:
                raise CdpError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, text):
        data = text.encode()
        hdr = bytearray([0x81])
        n = len(data)
        if n < 126:
            hdr.append(0x80 | n)
        elif n < 65536:
            hdr.append(0x80 | 126)
            hdr += struct.pack(">H", n)
        else:
            hdr.append(0x80 | 127)
            hdr += struct.pack(">Q", n)
        mask = os.urandom(4)
        hdr += mask
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data)) if n < 4096 else _mask_fast(data, mask)
        self.sock.sendall(bytes(hdr) + masked)

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            op, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = _mask_fast(data, mask)
            if op == 0x8:
                raise CdpError("websocket closed by the browser")
            if op == 0x9:  # ping -> pong
                self.sock.sendall(bytes([0x8A, 0x80 | len(data)]) + b"\0\0\0\0" + data)
                continue
            if op == 0xA:
                continue
            msg += data
            if b0 & 0x80:
                return msg.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def _mask_fast(data, mask):
    n = len(data)
    m = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
    return (int.from_bytes(data, "big") ^ m).to_bytes(n, "big")


class Page:
    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 0
        self.events = []
        self.console_errors = []   # console.error/assert, uncaught exceptions, error log entries
        self.console_all = []
        self.requests = []         # every URL the page asked for
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")

    def _event(self, m):
        meth, p = m.get("method"), m.get("params", {})
        self.events.append(m)
        if meth == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            self.console_all.append((p.get("type"), text))
            if p.get("type") in ("error", "assert"):
                self.console_errors.append("console." + p.get("type") + ": " + text)
        elif meth == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.console_errors.append("exception: " + d.get("text", "") + " " +
                                       str(d.get("exception", {}).get("description", "")))
        elif meth == "Log.entryAdded":
            e = p.get("entry", {})
            self.console_all.append((e.get("level"), e.get("text")))
            if e.get("level") == "error":
                self.console_errors.append("log: " + str(e.get("text")) + " " + str(e.get("url", "")))
        elif meth == "Network.requestWillBeSent":
            self.requests.append(p.get("request", {}).get("url"))

    def call(self, method, timeout=60, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            if time.monotonic() > deadline:
                raise CdpError(method + ": no answer in %d s" % timeout)
            m = json.loads(self.ws.recv())
            if m.get("id") == mid:
                if "error" in m:
                    raise CdpError(method + ": " + json.dumps(m["error"]))
                return m.get("result", {})
            if "method" in m:
                self._event(m)

    def wait_event(self, method, timeout=60):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                del self.events[: i + 1]
                return m
        deadline = time.monotonic() + timeout
        self.ws.sock.settimeout(timeout)
        while time.monotonic() < deadline:
            m = json.loads(self.ws.recv())
            if "method" in m:
                self._event(m)
                if m["method"] == method:
                    self.events.clear()
                    return m
        raise CdpError("no " + method + " in %d s" % timeout)

    def navigate(self, url, timeout=60):
        self.events.clear()
        self.call("Page.navigate", url=url)
        return self.wait_event("Page.loadEventFired", timeout)

    def evaluate(self, expr, timeout=60):
        r = self.call("Runtime.evaluate", timeout=timeout, expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise CdpError("evaluate(" + expr[:80] + "): " + json.dumps(r["exceptionDetails"])[:400])
        return r.get("result", {}).get("value")

    def click(self, selector):
        """A real mouse click (press + release) at the centre of the element."""
        box = self.evaluate("(function(){var e=document.querySelector(%s); if(!e) return null; e.scrollIntoView();"
                            "var r=e.getBoundingClientRect(); return [r.left+r.width/2, r.top+r.height/2];})()"
                            % json.dumps(selector))
        if not box:
            raise CdpError("click: no element " + selector)
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def screenshot(self):
        return base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])

    def close(self):
        self.ws.close()


class Browser:
    def __init__(self, width=1400, height=1000):
        if not shutil.which(CHROMIUM):
            raise CdpError(CHROMIUM + " not found (Debian: apt-get install chromium)")
        self.profile = tempfile.mkdtemp(prefix="hv-chromium-")
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--metrics-recording-only",
                "--remote-debugging-port=0", "--user-data-dir=" + self.profile,
                "--window-size=%d,%d" % (width, height), "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        port = None
        deadline = time.monotonic() + 60
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline().decode(errors="replace")
            if not line:
                break
            lines.append(line)
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if not port:
            self.close()
            raise CdpError("chromium did not start:\n" + "".join(lines[-20:]))
        # keep draining stderr so the browser never blocks on a full pipe
        import threading
        threading.Thread(target=lambda: [None for _ in iter(self.proc.stderr.readline, b"")], daemon=True).start()
        self.port = port

    def open(self, url=None):
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % self.port, timeout=30) as r:
            targets = json.load(r)
        page = [t for t in targets if t.get("type") == "page"][0]
        p = Page(page["webSocketDebuggerUrl"])
        if url:
            p.navigate(url)
        return p

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def png_pixels(png):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB/RGBA PNG."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError("PNG not 8-bit RGB/RGBA")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows
