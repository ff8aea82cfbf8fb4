"""The broker harness itself (tests/brokers.py): accounts, ACL, TLS, restart, both brokers."""

from __future__ import annotations

import pytest
from brokers import ConnectRefused, Recorder, club_spec, connect


def _publish(client, topic: str, payload: bytes, retain: bool = False):
    info = client.publish(topic, payload, qos=1, retain=retain)
    info.wait_for_publish(10)
    return info


def test_accounts_right_password_connects_wrong_one_is_refused(mqtt_broker) -> None:
    c = connect(mqtt_broker, "t1")
    c.disconnect()
    c.loop_stop()
    with pytest.raises(ConnectRefused):
        connect(mqtt_broker, "t1", password="not-the-password")
    with pytest.raises(ConnectRefused):
        connect(mqtt_broker, None)  # no anonymous access


def test_acl_a_table_writes_only_its_own_topics(mqtt_broker) -> None:
    rec = Recorder(mqtt_broker, "server", "skat/#")
    t1 = connect(mqtt_broker, "t1")
    _publish(t1, "skat/c1/table/t2/game", b"forged")  # another table's topic
    _publish(t1, "skat/c1/table/t1/game", b"own")
    got = rec.wait_for(lambda m: [x for x in m if x.payload == b"own"], 10)
    assert got, "the table's own game did not arrive"
    assert [x.topic for x in rec.messages] == ["skat/c1/table/t1/game"]
    t1.disconnect()
    t1.loop_stop()
    rec.close()


def test_tls_listener_with_the_tests_certificate(broker_factory, tmp_path) -> None:
    from brokers import make_certificates

    broker = broker_factory(tls=True)
    assert broker.url(tls=True).startswith("mqtts://localhost:")
    c = connect(broker, "t1", tls=True)
    c.disconnect()
    c.loop_stop()
    stranger = make_certificates(tmp_path / "other")  # a CA that did not sign the server
    with pytest.raises(ConnectRefused):
        connect(broker, "t1", tls=True, ca_file=stranger.ca_file, timeout=5)


def test_restart_keeps_retained_status_where_the_broker_persists(mqtt_broker) -> None:
    t1 = connect(mqtt_broker, "t1")
    _publish(t1, "skat/c1/table/t1/status", b'{"state": "idle"}', retain=True)
    t1.disconnect()
    t1.loop_stop()
    mqtt_broker.restart()
    rec = Recorder(mqtt_broker, "watcher", "skat/c1/table/+/status")
    retained = rec.wait_for(lambda m: [x for x in m if x.retain], 3)
    rec.close()
    if mqtt_broker.persistent:
        assert [x.payload for x in retained] == [b'{"state": "idle"}']
    else:  # amqtt keeps nothing across a restart; the report names the broker that ran
        assert mqtt_broker.kind == "amqtt" and not retained


def test_spec_patterns_match_mosquitto_semantics() -> None:
    spec = club_spec("c9", ["7"])
    assert spec.allows("7", "write", "skat/c9/table/7/status")
    assert not spec.allows("7", "write", "skat/c9/table/7/seating")
    assert not spec.allows("7", "read", "skat/c9/table/+/seating")
    assert spec.allows("7", "read", "skat/c9/tournament/x/standings")
    assert not spec.allows("watcher", "write", "skat/c9/table/7/game")


def test_harness_doctests() -> None:
    import doctest

    import brokers

    assert doctest.testmod(brokers).failed == 0
