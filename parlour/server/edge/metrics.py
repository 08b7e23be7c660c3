"""What an operator watches: ``/metrics`` in Prometheus's text format, per process.

Read at each scrape from the process's own state (nothing is counted twice): the tables
it owns by status, its clients (on its own sockets, and relayed to it from other
processes), the actions it applied, the leases it took over, the searching bots' queue,
and the time from a client's intent coming in to its view going out (a histogram:
Prometheus's ``histogram_quantile(0.99, ...)`` gives the p99). Sum over the processes in
Prometheus for the whole parlour (docs/deploy.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from parlour.server.cluster.outages import DATABASE, DEPENDENCIES

if TYPE_CHECKING:
    from parlour.server.cluster.heartbeats import Cluster
    from parlour.server.cluster.relay import Relay
    from parlour.server.play.tables import Hub

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: Buckets of the intent-to-view time, in seconds (a move is answered in milliseconds).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """One process's metrics, in a registry of its own (several apps may share a process
    in tests)."""

    def __init__(self, hub: Hub, cluster: Cluster | None = None,
                 relay: Relay | None = None) -> None:
        self.registry = CollectorRegistry()
        self.latency = Histogram("parlour_intent_to_view_seconds",
                                 "time from a client's intent coming in to its view going out",
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.registry.register(_Live(hub, cluster, relay))
        hub.intent_done = self.latency.observe

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _Live(Collector):
    """The gauges and counters read from the hub at each scrape."""

    def __init__(self, hub: Hub, cluster: Cluster | None, relay: Relay | None) -> None:
        self.hub = hub
        self.cluster = cluster
        self.relay = relay

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        tables = GaugeMetricFamily("parlour_tables", "tables this process owns, by status",
                                   labels=["status"])
        counts = Counter(t.status for t in hub.tables.values())
        for status in ("waiting", "playing", "finished", "closed"):
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        relay, cluster = self.relay, self.cluster
        conns = GaugeMetricFamily("parlour_connections", "clients at tables, by where their "
                                  "socket is", labels=["kind"])
        local = sum(1 for t in hub.tables.values() for c in t.conns)
        remote = len(relay.remotes) if relay is not None else 0
        conns.add_metric(["local"], local - remote)  # sockets here, at tables owned here
        conns.add_metric(["relayed_in"], remote)  # other processes' clients, owned here
        conns.add_metric(["relayed_out"], len(relay.clients) if relay is not None else 0)
        yield conns
        actions = CounterMetricFamily("parlour_actions", "actions applied by this process")
        actions.add_metric([], hub.actions)
        yield actions
        moves = CounterMetricFamily("parlour_lease_moves", "tables this process took over "
                                    "from another owner (or took at start)")
        moves.add_metric([], cluster.leases.moves if cluster is not None else 0)
        yield moves
        queue = GaugeMetricFamily("parlour_bot_queue_depth", "tables waiting for a search "
                                  "worker")
        queue.add_metric([], hub.runner.queue.waiting())
        yield queue
        up = GaugeMetricFamily("parlour_dependency_up", "1 while this process reaches the "
                               "dependency (as it last found it), 0 while it is out of reach",
                               labels=["dependency"])
        outages = CounterMetricFamily("parlour_dependency_outages", "times this process "
                                      "found the dependency out of reach", labels=["dependency"])
        refused = CounterMetricFamily("parlour_dependency_refusals", "operations the "
                                      "dependency failed while out of reach",
                                      labels=["dependency"])
        for name in DEPENDENCIES if relay is not None else (DATABASE,):
            up.add_metric([name], 0 if hub.outages.down(name) else 1)
            outages.add_metric([name], hub.outages.outages[name])
            refused.add_metric([name], hub.outages.refused[name])
        yield up
        yield outages
        yield refused
        draining = GaugeMetricFamily("parlour_draining", "1 while the process hands its "
                                     "tables over before it stops")
        draining.add_metric([], 1 if cluster is not None and cluster.draining else 0)
        yield draining
