"""Several server processes on one database: who owns each table (leases), heartbeats and
takeover, the Redis relay between processes, the shared limits, and the outages of the
database and Redis."""
