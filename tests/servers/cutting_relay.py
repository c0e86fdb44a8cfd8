"""A loopback TCP relay that cuts HTTP answers: every Nth answer from the server (``--cut-every N``,
counted by status line over all connections) is cut off after its headers and a few bytes (or, with
``--cut-at start``, before its first byte), and its connection closed both ways. Prints its URL (``--path``, /mcp unless given) first; the server is the
``HOST:PORT`` argument."""

from __future__ import annotations

import asyncio
import sys

ARGS = sys.argv[1:]
UPSTREAM = ARGS[0]
EVERY = int(ARGS[ARGS.index("--cut-every") + 1]) if "--cut-every" in ARGS else 10
PATH = ARGS[ARGS.index("--path") + 1] if "--path" in ARGS else "/mcp"
# Where an answer is cut: "headers" (after its headers and a few bytes) or "start" (nothing of it sent).
AT = ARGS[ARGS.index("--cut-at") + 1] if "--cut-at" in ARGS else "headers"
ANSWERS = [0]


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, answers: bool,
               other: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            if answers and data.startswith(b"HTTP/1.1 "):
                ANSWERS[0] += 1
                if ANSWERS[0] % EVERY == 0:
                    end = data.find(b"\r\n\r\n")
                    if AT == "headers":
                        writer.write(data[: (end + 4 if end != -1 else len(data)) + 8])
                        await writer.drain()
                    break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        for w in (writer, other):
            w.close()


async def handle(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
    host, port = UPSTREAM.rsplit(":", 1)
    try:
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pipe(client_reader, up_writer, False, client_writer),
                         pipe(up_reader, client_writer, True, up_writer))


async def main() -> None:
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}{PATH}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
