"""A small TCP proxy that can be cut: the fault run and the cache tests put it
in front of a redis-server to take the network away without stopping Redis.

``cut()`` closes every open connection and makes new ones close at once
(the client sees its connection reset, as when a link or a firewall drops);
``restore()`` lets connections through again. ``frozen_server()`` is the
other fault: a port that accepts connections and never answers.
"""

from __future__ import annotations

import contextlib
import socket
import threading


class TcpProxy:
    def __init__(self, target_host: str, target_port: int, host: str = "127.0.0.1"):
        self.target = (target_host, target_port)
        self._listener = socket.create_server((host, 0))
        self.host, self.port = self._listener.getsockname()[:2]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._cut = False
        self.accepted = 0
        self.refused_while_cut = 0
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url_base(self) -> str:
        return f"redis://{self.host}:{self.port}"

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            sockets, self._open = list(self._open), set()
        for sock in sockets:
            _close(sock)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        _close(self._listener)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _address = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self.accepted += 1
                if self._cut:
                    self.refused_while_cut += 1
                    _close(client)
                    continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)
            _close(source)
            _close(sink)


class FrozenServer:
    """Accepts connections and never answers (a Redis stopped with SIGSTOP
    looks like this to its clients); ``hold`` seconds later it drops them."""

    def __init__(self, hold: float = 10.0):
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.hold = hold
        self.accepted = 0
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url_base(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _address = self._listener.accept()
            except OSError:
                return
            self.accepted += 1
            timer = threading.Timer(self.hold, _close, args=(client,))
            timer.daemon = True
            timer.start()

    def close(self) -> None:
        self._closed = True
        _close(self._listener)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
