"""``skat-table club serve``: the broker (embedded or configured), the subscriber and the web
server in one process."""

from __future__ import annotations

import asyncio
import logging
import sys
from dataclasses import replace

from club.config import ClubConfig
from club.mqtt import EmbeddedBroker, Subscriber
from club.service import ClubService
from club.store import Store
from club.web import Hub, create_app

log = logging.getLogger("club")


async def serve(config: ClubConfig) -> None:
    import uvicorn

    embedded = None
    broker = config.broker
    if broker.url is None:
        embedded = EmbeddedBroker(broker.listen)
        await embedded.start()
        host, port = broker.host_port
        log.info("club: embedded amqtt broker on %s:%s", host, port)
        broker = replace(broker, url=f"mqtt://{host}:{port}")
    store = Store(config.database)
    service = ClubService(config, store)
    subscriber = Subscriber(broker, config.club_id, service)
    service.publish = subscriber.publish
    hub = Hub()
    app = create_app(service, hub)
    subscriber.start()
    server = uvicorn.Server(uvicorn.Config(
        app, host=config.web.host, port=config.web.port, log_level="warning",
        timeout_graceful_shutdown=2, access_log=False))
    print(f"club: serving http://{config.web.host}:{config.web.port}/ for tournament "
          f"{config.tournament.id} (broker {broker.url}{', embedded' if embedded else ''})",
          file=sys.stderr, flush=True)
    try:
        await server.serve()
    finally:
        subscriber.stop()
        if embedded is not None:
            await embedded.stop()
        store.close()


def run(config: ClubConfig) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(message)s",
                        stream=sys.stderr)
    logging.getLogger("club").setLevel(logging.INFO)
    asyncio.run(serve(config))
    return 0
