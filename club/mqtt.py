"""The MQTT side of the club server: a paho subscriber that stores before it acknowledges,
and the embedded amqtt broker for a club evening on one laptop.

The subscriber keeps a persistent session (``clean_session`` off, a fixed client id), so the
broker queues the tables' QoS 1 games while the server is down and delivers them when it is
back. Acknowledgements are manual: a game's PUBACK is sent only after it is committed to
SQLite; a server killed in between gets the message again (a repeat of a stored revision
changes nothing). A writer thread takes the messages that arrived meanwhile (up to
``BATCH``) and stores them in one transaction, one fsync, before acknowledging each.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt

from club.config import BrokerConfig
from club.service import ClubService

log = logging.getLogger("club.mqtt")

BATCH = 200


class Subscriber:
    """Connects to the broker, subscribes to the club's table topics, feeds the service."""

    def __init__(self, broker: BrokerConfig, club_id: str, service: ClubService) -> None:
        self.broker = broker
        self.club_id = club_id
        self.service = service
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=broker.client_id or f"skat-club-{club_id}",
                                  clean_session=False, protocol=mqtt.MQTTv311,
                                  manual_ack=True)
        if broker.username:
            self.client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            self.client.tls_set()
        self.client.max_inflight_messages_set(100)
        self.client.reconnect_delay_set(1, 10)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._last_standings = 0.0
        self._standings_version = -1
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._writer = threading.Thread(target=self._write, name="club-writer", daemon=True)

    def start(self) -> None:
        host, port = self.broker.host_port
        self._writer.start()
        self.client.connect_async(host, port, keepalive=30)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self._inbox.put(None)
        self._writer.join(timeout=10)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    props: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            log.error("club: the broker refused the connection: %s", reason)
            return
        topics = [(f"skat/{self.club_id}/table/+/game", 1),
                  (f"skat/{self.club_id}/table/+/status", 1)]
        client.subscribe(topics)
        log.info("club: connected to the broker %s:%s", *self.broker.host_port)
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       props: Any = None) -> None:
        self.connected.clear()
        log.warning("club: lost the broker (%s); reconnecting", reason)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        self._inbox.put(msg)

    def _write(self) -> None:
        while True:
            first = self._inbox.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    m = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if m is None:
                    self._inbox.put(None)
                    break
                batch.append(m)
            try:
                self.service.handle_batch([(_topic(m), bytes(m.payload)) for m in batch])
            except Exception:
                # Not stored (the disk is full or gone; whatever a message holds is refused,
                # never raised): acknowledge nothing and stop, so the broker keeps the
                # messages for the session and sends them again when the server is restarted
                # (systemd: Restart=on-failure) with a working disk.
                log.critical("club: could not store %d message(s); stopping without "
                             "acknowledging them", len(batch), exc_info=True)
                os._exit(3)
            for m in batch:
                self.client.ack(m.mid, m.qos)
            self._maybe_standings()

    def publish(self, topic: str, payload: dict[str, Any], retain: bool) -> None:
        self.client.publish(topic, json.dumps(payload, ensure_ascii=False), qos=1,
                            retain=retain)

    def _maybe_standings(self, force: bool = False) -> None:
        """The retained standings topic, at most once a second."""
        now = time.monotonic()
        if not force and now - self._last_standings < 1.0:
            return
        if self.service.version == self._standings_version:
            return
        self._last_standings = now
        self._standings_version = self.service.version
        topic = f"skat/{self.club_id}/tournament/{self.service.config.tournament.id}/standings"
        self.publish(topic, self.service.standings_message(), True)


def _topic(msg: Any) -> str:
    """The message's topic as text. MQTT requires UTF-8 topics and Mosquitto enforces it, but
    paho decodes strictly: a broker that let a bad one through must not stop the writer (the
    service refuses the topic as not one of the club's)."""
    try:
        return str(msg.topic)
    except UnicodeDecodeError:
        return "(a topic that is not UTF-8)"


class EmbeddedBroker:
    """amqtt in this process (on the server's event loop), when no broker is configured:
    anonymous access on the configured ``listen`` address (keep it on a private network)."""

    def __init__(self, listen: str) -> None:
        self.listen = listen
        self._broker: Any = None

    async def start(self) -> None:
        from amqtt.broker import Broker

        config = {
            "listeners": {"default": {"type": "tcp", "bind": self.listen}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True},
            },
        }
        logging.getLogger("amqtt").setLevel(logging.WARNING)
        self._broker = Broker(config, loop=asyncio.get_running_loop())
        await self._broker.start()

    async def stop(self) -> None:
        if self._broker is not None:
            await self._broker.shutdown()
