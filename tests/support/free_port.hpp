#pragma once
// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice for port 0, released
// again), for the tests that start a server or a peer on a port of their own; 0 when none could be
// had.

namespace cineflow::test {

int freeLoopbackPort();

}  // namespace cineflow::test
