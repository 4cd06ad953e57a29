"""The conformance harness: a scenario file run on a real broker by real
clients, and by the engine, and the two compared delivery by delivery."""
