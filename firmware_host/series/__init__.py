"""A series kept (floor 3): the session (the table, its journal and its computer seats), the
journal and its recovery, the simulated hands that play a series, and the controller bench
(input latency with fsync, resume).
"""
