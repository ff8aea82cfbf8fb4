"""The controller process that runs on the Pi, in rooms by floor (each imports only from its
floor and below, ``tests/test_architecture.py``): ``configerror`` (0); ``config``, ``table/``
and ``clubside/`` (1); ``screen/`` (2); ``series/`` (3); ``service/`` (4); ``tools/``, the
command line ``cli`` and ``bench`` (5).
"""
