"""A TCP link with a fixed one-way delay between clients and a broker, as a
network between hosts has: every chunk either way is passed on `delay_ms`
after it arrived, in order. It listens on a free port of 127.0.0.1 and
runs its own event loop on a thread; `close()` stops it and every
connection it carried."""

import asyncio
import socket
import threading
import time


class Link:
    def __init__(self, host, port, delay_ms):
        self.upstream = (host, port)
        self.delay = delay_ms / 1000
        self.loop = asyncio.new_event_loop()
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._sock = sock
        self._ready = threading.Event()
        self._writers = set()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the delayed link did not start listening within 10 s")

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.create_task(self._serve())
        self.loop.run_forever()

    async def _serve(self):
        self._server = await asyncio.start_server(self._carry, sock=self._sock)
        self._ready.set()

    async def _pump(self, reader, writer):
        """Chunks from `reader` reach `writer` `delay` after they arrived;
        the end of `reader` closes `writer` once what came before it went."""
        queue = asyncio.Queue()

        async def send():
            while True:
                at, data = await queue.get()
                wait = at + self.delay - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if data is None:
                    break
                writer.write(data)
                await writer.drain()

        sender = asyncio.ensure_future(send())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((time.monotonic(), data))
        except OSError:
            pass
        queue.put_nowait((time.monotonic(), None))
        try:
            await sender
        except OSError:
            pass
        writer.close()

    async def _carry(self, client_r, client_w):
        self._writers.add(client_w)
        try:
            broker_r, broker_w = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_w.close()
            return
        self._writers.add(broker_w)
        await asyncio.gather(self._pump(client_r, broker_w), self._pump(broker_r, client_w))

    async def _shutdown(self):
        """Stops listening and cuts every connection; each one's pumps then end."""
        self._server.close()
        for w in self._writers:
            w.transport.abort()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        if others:
            await asyncio.wait(others, timeout=5)

    def close(self):
        try:
            asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)
            self.loop.close()
