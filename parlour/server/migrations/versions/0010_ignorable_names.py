"""Account names without default-ignorable characters: every account's key is taken
again by today's :func:`~parlour.server.people.account_names.name_key`, which drops Unicode's
Default_Ignorable_Code_Point characters (U+034F, the variation selectors, the Hangul
fillers...). Accounts whose new keys meet are the same name: the oldest (made first, then
the lowest id) keeps it, and each later one is renamed to its name without those
characters and a number ("Ana 2"), or "Player <id>" when too little is left. A renamed
account keeps the name it had in ``renamed_from`` until it is told (at its next sign-in,
or the next time its page asks who is signed in), and each rename is a row of the admin
log, by ``migration 0010``.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

from parlour.server.people.account_names import NAME_MAX, name_key, without_ignorables

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

KEY_MAX = 160


def _free_name(base: str, account_id: int, taken: set[str]) -> tuple[str, str]:
    """A name for a renamed account, and its key: ``base`` and the first number that makes
    it a name nobody has."""
    base = " ".join(base.split())[:NAME_MAX - 4].strip()
    if sum(ch.isalnum() for ch in base) < 2:
        base = f"Player {account_id}"
    for n in range(2, 10_000):
        name = f"{base} {n}"
        key = name_key(name)
        if key not in taken and len(key) <= KEY_MAX:
            return name, key
    raise RuntimeError(f"no free name for account {account_id}")  # pragma: no cover


def upgrade() -> None:
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.add_column(sa.Column("renamed_from", sa.String(40)))
    accounts = sa.table("parlour_accounts", sa.column("id", sa.Integer),
                        sa.column("name", sa.String), sa.column("name_key", sa.String),
                        sa.column("created", sa.Float), sa.column("deleted", sa.Float),
                        sa.column("renamed_from", sa.String))
    log = sa.table("parlour_admin_log", sa.column("at", sa.Float),
                   sa.column("action", sa.String), sa.column("account_id", sa.Integer),
                   sa.column("detail", sa.String), sa.column("operator", sa.String))
    conn = op.get_bind()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)
                        .where(accounts.c.deleted.is_(None))
                        .order_by(accounts.c.created, accounts.c.id)).all()
    taken = {k for (k,) in conn.execute(sa.select(accounts.c.name_key)
                                        .where(accounts.c.deleted.is_not(None)))}
    keys = {row.id: name_key(row.name) for row in rows}
    claimed = taken | set(keys.values())  # a new name must not take a later account's key
    changes: dict[int, dict[str, str]] = {}
    for row in rows:  # oldest first: the first to reach a key keeps it
        key = keys[row.id]
        if key in taken or len(key) > KEY_MAX:
            name, key = _free_name(without_ignorables(row.name), row.id, claimed)
            claimed.add(key)
            changes[row.id] = {"name": name, "name_key": key, "renamed_from": row.name}
        elif key != row.name_key:
            changes[row.id] = {"name_key": key}
        taken.add(key)
    # Keys are unique: every changed row steps aside first, then takes its new key.
    for account_id in changes:
        conn.execute(sa.update(accounts).where(accounts.c.id == account_id)
                     .values(name_key=f"#rekey-{account_id}"))
    now = time.time()
    for account_id, values in changes.items():
        conn.execute(sa.update(accounts).where(accounts.c.id == account_id).values(**values))
        if "renamed_from" in values:
            conn.execute(sa.insert(log).values(
                at=now, action="rename", account_id=account_id, operator="migration 0010",
                detail=f"{values['renamed_from']} -> {values['name']}: looks the same as "
                       "an older account's name"[:200]))


def downgrade() -> None:
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.drop_column("renamed_from")
