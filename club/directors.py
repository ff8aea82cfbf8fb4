"""The tournament's directors, each with a name and a password of their own.

The first director is the one ``club.toml`` sets up, as before names existed: ``[director]
password_hash``, and ``name`` (``director`` when left out, which is also who the audit of a
database from before names existed says did everything). Any director can add others on the
director's page (a name and a password, kept as a scrypt hash in the database) and remove
them; a removed director cannot log in, and a session they still had open ends at their next
click. The first director is changed in ``club.toml`` only, so that nobody locks out the club
from the page. Each addition and removal is in the audit with who did it.

>>> from club.store import Store
>>> d = Directors(Store(":memory:"), "director", None)
>>> d.add("Anna Weber", "scrypt$16384$8$1$AA==$AA==", by="director")
>>> d.names(), d.exists("Anna Weber"), d.exists("Ben")
(['director', 'Anna Weber'], True, False)
>>> d.remove("director", by="Anna Weber")
Traceback (most recent call last):
...
club.directors.DirectorError: director is set up in club.toml: change it there
"""

from __future__ import annotations

from club.store import Store

MIN_PASSWORD = 8
MAX_NAME = 40


class DirectorError(ValueError):
    """A director cannot be added or removed as asked; the message says why."""


class Directors:
    """Who may log in as a director (thread-safe: every call is one store query)."""

    def __init__(self, store: Store, first: str, first_hash: str | None) -> None:
        self.store = store
        self.first = first
        self.first_hash = first_hash
        # the login attempts stored before names existed were all the first director's
        store.name_old_logins(first)

    def names(self) -> list[str]:
        return [self.first] + [d["name"] for d in self.store.directors()
                               if d["name"] != self.first]

    def listing(self) -> list[dict[str, str]]:
        """For the director's page: name, added when and by whom."""
        return [dict(name=self.first, added_at="", added_by="club.toml")] + [
            dict(name=d["name"], added_at=d["added_at"], added_by=d["added_by"])
            for d in self.store.directors() if d["name"] != self.first]

    def exists(self, name: str) -> bool:
        return name == self.first or any(d["name"] == name for d in self.store.directors())

    def hash_for(self, name: str) -> str | None:
        """The password hash to check ``name``'s password against (None: no such director,
        or the first one's is not configured)."""
        if name == self.first:
            return self.first_hash
        return next((d["password_hash"] for d in self.store.directors() if d["name"] == name),
                    None)

    @staticmethod
    def check_new(name: str, password: str) -> str:
        """The name to add, cleaned; refuses what cannot be one (before hashing)."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise DirectorError(f"a director's name has 1..{MAX_NAME} letters, digits or "
                                "spaces")
        if len(password) < MIN_PASSWORD:
            raise DirectorError(f"a director's password needs at least {MIN_PASSWORD} "
                                "characters")
        if len(password) > 1024:
            raise DirectorError("that password is too long (1024 characters at most)")
        return name

    def add(self, name: str, password_hash: str, by: str) -> None:
        if self.exists(name):
            raise DirectorError(f"there is a director named {name} already")
        with self.store.transaction():
            if not self.store.add_director(name, password_hash, by):
                raise DirectorError(f"there is a director named {name} already")
            self.store.add_audit(by, "director", f"added director {name}")

    def remove(self, name: str, by: str) -> None:
        if name == self.first:
            raise DirectorError(f"{name} is set up in club.toml: change it there")
        if name == by:
            raise DirectorError("a director cannot remove themself: ask another director")
        with self.store.transaction():
            if not self.store.remove_director(name):
                raise DirectorError(f"there is no director named {name}")
            self.store.add_audit(by, "director", f"removed director {name}")

    def set_password(self, name: str, password_hash: str) -> None:
        """A director added on the page changes their own password."""
        if name == self.first:
            raise DirectorError(f"{name}'s password is set in club.toml: change it there")
        if not self.exists(name):
            raise DirectorError(f"there is no director named {name}")
        with self.store.transaction():
            self.store.set_director_hash(name, password_hash)
            self.store.add_audit(name, "director", f"{name} changed their password")
