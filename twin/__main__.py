"""``python -m twin``: the whole twin run with its table of figures (twin/run.py)."""

from twin.run import main

raise SystemExit(main())
