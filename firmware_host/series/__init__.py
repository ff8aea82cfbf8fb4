"""A series kept: the session (the table, its journal and its computer seats), the journal and its
recovery, the export of a journalled series, and the controller bench (input latency with fsync,
resume).
"""
