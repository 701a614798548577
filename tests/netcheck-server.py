#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host end of the guest's checksummed transfers (tests/guest/tests/vnet-*.sh).

Usage: netcheck-server.py ADDR PORT PIDFILE

One request per connection, a line then data:
  PUT N\\n + N bytes   the server reads N bytes and answers the sha256 of them
  GET N SEED\\n        the server answers a sha256 line, then N bytes whose sha256
                      it is (a deterministic stream from SEED)
Runs until killed; a bad request gets "ERR ..." and the connection is closed.
"""
import hashlib
import os
import socketserver
import sys

CHUNK = 1 << 16


def stream(n, seed):
    """N bytes: sha512 of SEED:counter, concatenated."""
    i = 0
    while n > 0:
        block = hashlib.sha512(('%s:%d' % (seed, i)).encode()).digest() * (CHUNK // 64)
        yield block[:n]
        n -= min(n, len(block))
        i += 1


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        words = self.rfile.readline(200).decode(errors='replace').split()
        try:
            if len(words) == 2 and words[0] == 'PUT':
                left = int(words[1])
                h = hashlib.sha256()
                while left > 0:
                    b = self.rfile.read(min(CHUNK, left))
                    if not b:
                        break
                    h.update(b)
                    left -= len(b)
                self.wfile.write(('%s\n' % (h.hexdigest() if left == 0 else 'SHORT')).encode())
            elif len(words) == 3 and words[0] == 'GET':
                n = int(words[1])
                h = hashlib.sha256()
                for b in stream(n, words[2]):
                    h.update(b)
                self.wfile.write(('%s\n' % h.hexdigest()).encode())
                for b in stream(n, words[2]):
                    self.wfile.write(b)
            else:
                self.wfile.write(b'ERR bad request\n')
        except (ValueError, OSError) as e:
            try:
                self.wfile.write(('ERR %s\n' % e).encode())
            except OSError:
                pass


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    allow_reuse_address = True
    daemon_threads = True


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    srv = Server((argv[0], int(argv[1])), Handler)
    with open(argv[2], 'w') as f:
        f.write('%d\n' % os.getpid())
    srv.serve_forever()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
