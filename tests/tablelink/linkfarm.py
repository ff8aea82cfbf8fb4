"""Many real links in one process, one thread each (the hundred-table test runs a few of these).

    python linkfarm.py FARM.json

``FARM.json``: ``{"tables": [{"table", "url", "password_file", "outbox" (a journal), "spool"}],
"club", "options": {LinkOptions fields}}``. Runs until SIGTERM (or is SIGKILLed by the test).
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path

from firmware_host.clubside.clubconfig import parse_club
from firmware_host.clubside.link.outbox import JournalOutbox
from firmware_host.clubside.link.service import Link, LinkOptions


def main(path: str) -> int:
    farm = json.loads(Path(path).read_text())
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    opts = LinkOptions(**farm.get("options", {}))
    threads = []
    for t in farm["tables"]:
        cfg = parse_club({"broker": t["url"], "club": farm["club"], "table": t["table"],
                          "password_file": t["password_file"]})
        link = Link(cfg, JournalOutbox(Path(t["outbox"])), Path(t["spool"]), opts)
        th = threading.Thread(target=link.run, args=(stop.is_set, 0.05), daemon=True)
        th.start()
        threads.append(th)
    print("ready", flush=True)
    stop.wait()
    for th in threads:
        th.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
