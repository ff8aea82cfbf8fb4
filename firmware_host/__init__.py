"""The controller process: config, wiring, event loop, journal and recovery, CLI, simulator."""
