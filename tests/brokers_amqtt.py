"""amqtt in-process: the second broker of ``brokers.py`` (``SKAT_TEST_BROKER=amqtt``).

It runs in a thread with its own event loop, with the same accounts and ACL as the Mosquitto
config (two small plugins below read the :class:`brokers.BrokerSpec`). amqtt speaks MQTT 3.1.1
only and keeps nothing across a restart (no persistence): ``Broker.persistent`` is False.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from amqtt.broker import Broker as AmqttBroker
from amqtt.contexts import Action
from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin
from amqtt.session import Session
from brokers import AclRule, BrokerSpec, TlsFiles


class SpecAuthPlugin(BaseAuthPlugin):
    """User name and password from the spec; no anonymous access."""

    @dataclass
    class Config:
        users: dict[str, str] = field(default_factory=dict)

    async def authenticate(self, *, session: Session) -> bool | None:
        users: dict[str, str] = self.context.config.users  # type: ignore[union-attr]
        name = session.username or ""
        if name not in users:
            return False
        return hmac.compare_digest(users[name].encode(), (session.password or "").encode())


class SpecAclPlugin(BaseTopicPlugin):
    """Mosquitto-style ACL rules (``%u`` patterns included) from the spec."""

    @dataclass
    class Config:
        rules: list[dict[str, Any]] = field(default_factory=list)

    async def topic_filtering(self, *, session: Session | None = None, topic: str | None = None,
                              action: Action | None = None) -> bool | None:
        if session is None or not topic or not session.username:
            return False
        rules = tuple(AclRule(**r) for r in self.context.config.rules)  # type: ignore[union-attr]
        spec = BrokerSpec(users={}, acl=rules)
        access = "write" if action == Action.PUBLISH else "read"
        return spec.allows(session.username, access, topic)


class AmqttRunner:
    """One amqtt broker on a thread of its own."""

    def __init__(self, spec: BrokerSpec, host: str, port: int, tls: TlsFiles | None,
                 tls_port: int | None, log_file: Path) -> None:
        listeners: dict[str, Any] = {"default": {"type": "tcp", "bind": f"{host}:{port}"}}
        if tls is not None and tls_port is not None:
            listeners["tls"] = {"type": "tcp", "bind": f"{host}:{tls_port}", "ssl": True,
                                "certfile": str(tls.cert_file), "keyfile": str(tls.key_file)}
        self._config = {
            "listeners": listeners,
            "plugins": {
                f"{__name__}.SpecAuthPlugin": {"users": dict(spec.users)},
                f"{__name__}.SpecAclPlugin": {"rules": [
                    {"access": r.access, "topic": r.topic, "user": r.user} for r in spec.acl]},
            },
        }
        self._log_file = log_file
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: AmqttBroker | None = None
        self._handler: logging.Handler | None = None

    def start(self) -> None:
        self._handler = logging.FileHandler(self._log_file, encoding="utf-8")
        self._handler.setLevel(logging.INFO)
        logging.getLogger("amqtt").addHandler(self._handler)
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._thread = threading.Thread(target=loop.run_forever, name="amqtt", daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), loop).result(timeout=20)

    async def _start(self) -> None:
        self._broker = AmqttBroker(self._config)
        await self._broker.start()

    def stop(self) -> None:
        loop = self._loop
        if loop is None:
            return
        if self._broker is not None:
            try:
                asyncio.run_coroutine_threadsafe(self._broker.shutdown(), loop).result(timeout=20)
            except Exception:
                logging.getLogger(__name__).exception("amqtt did not shut down cleanly")
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=20)
        loop.close()
        self._loop = None
        if self._handler is not None:
            logging.getLogger("amqtt").removeHandler(self._handler)
            self._handler.close()
