"""Bearer tokens: who is calling, and whether they may administer.

Tokens come from three places, merged:

* ``WORKBENCH_API_TOKENS="token:owner,token2:owner2"``: one owner per token;
* ``WORKBENCH_ADMIN_TOKEN``: the administrator (owner ``admin``), who alone may reindex and
  validate;
* a tokens file, ``WORKBENCH_TOKENS_FILE`` or ``$WORKBENCH_HOME/tokens.json`` when it exists::

      {"tokens": [{"token": "...", "owner": "alice"},
                  {"token": "...", "owner": "ops", "admin": true}]}

With none of them, :func:`load_tokens` with ``create=True`` writes a tokens file holding one new
administrator token for owner ``local`` (file mode 0600) and reports it so that the command can
print it once. Tokens are kept as SHA-256 digests in memory; a lookup hashes the presented token.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from workbench.errors import NoteStoreError

__all__ = [
    "ADMIN_OWNER",
    "LOCAL_OWNER",
    "LoadedTokens",
    "Principal",
    "TokenRegistry",
    "bearer_token",
    "default_tokens_file",
    "load_tokens",
    "parse_api_tokens",
    "read_tokens_file",
    "write_tokens_file",
]

ADMIN_OWNER = "admin"
"""Owner of the notes created with ``WORKBENCH_ADMIN_TOKEN``."""
LOCAL_OWNER = "local"
"""Owner of the token created on first start when nothing is configured."""
_TOKEN_BYTES = 32


@dataclass(frozen=True)
class Principal:
    """An authenticated caller.

    Attributes
    ----------
    owner : str
        The notes it sees and writes.
    admin : bool
        Whether it may reindex and validate.
    """

    owner: str
    admin: bool = False


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _check_token(token: str, where: str) -> str:
    if not token or any(c.isspace() for c in token):
        raise NoteStoreError(f"{where}: a token must be non-empty and hold no whitespace")
    return token


def _check_owner(owner: str, where: str) -> str:
    owner = owner.strip()
    if not owner:
        raise NoteStoreError(f"{where}: the owner is empty")
    return owner


class TokenRegistry:
    """Maps bearer tokens to principals.

    Parameters
    ----------
    entries : iterable of (token, Principal, source)
        ``source`` names where the token came from (in the error of a conflicting duplicate).

    Raises
    ------
    NoteStoreError
        The same token given to two different principals.
    """

    def __init__(self, entries: Iterable[tuple[str, Principal, str]] = ()) -> None:
        self._by_digest: dict[str, tuple[Principal, str]] = {}
        for token, principal, source in entries:
            self.add(token, principal, source)

    def add(self, token: str, principal: Principal, source: str = "") -> None:
        """Register one token (again with the same principal is a no-op)."""
        _check_token(token, source or "token")
        key = _digest(token)
        known = self._by_digest.get(key)
        if known is not None and known[0] != principal:
            raise NoteStoreError(
                f"{source or 'token'}: this token is already given to owner {known[0].owner!r} "
                f"({known[1] or 'elsewhere'})"
            )
        self._by_digest[key] = (principal, source)

    def lookup(self, token: str | None) -> Principal | None:
        """The principal of a token, or None when unknown (or no token)."""
        if not token:
            return None
        found = self._by_digest.get(_digest(token))
        return found[0] if found else None

    def __len__(self) -> int:
        """Number of registered tokens."""
        return len(self._by_digest)

    @property
    def owners(self) -> list[str]:
        """Owners with at least one token, sorted."""
        return sorted({p.owner for p, _ in self._by_digest.values()})


def parse_api_tokens(value: str, *, name: str = "WORKBENCH_API_TOKENS") -> list[tuple[str, str]]:
    """Parse ``token:owner,token2:owner2`` into ``[(token, owner), ...]``.

    Raises
    ------
    NoteStoreError
        An entry without ``:``, or with an empty token or owner (naming the entry).
    """
    pairs = []
    for index, raw in enumerate(value.split(","), start=1):
        entry = raw.strip()
        if not entry:
            continue
        where = f"{name} entry {index}"
        token, sep, owner = entry.partition(":")
        if not sep:
            raise NoteStoreError(f"{where}: expected TOKEN:OWNER, got no ':'")
        pairs.append((_check_token(token.strip(), where), _check_owner(owner, where)))
    return pairs


def read_tokens_file(path: Path) -> list[tuple[str, Principal]]:
    """Read a JSON tokens file (``{"tokens": [{"token", "owner", "admin"?}, ...]}``).

    Raises
    ------
    NoteStoreError
        Unreadable file or a malformed entry, naming the file and the JSON path.
    """
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise NoteStoreError(f"{path}: cannot read the tokens file: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise NoteStoreError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("tokens"), list):
        raise NoteStoreError(f"{path}: expected an object with a 'tokens' list")
    out = []
    for i, item in enumerate(doc["tokens"]):
        where = f"{path}: tokens[{i}]"
        if not isinstance(item, dict):
            raise NoteStoreError(f"{where}: expected an object")
        token, owner, admin = item.get("token"), item.get("owner"), item.get("admin", False)
        if not isinstance(token, str):
            raise NoteStoreError(f"{where}.token: expected a string")
        if not isinstance(owner, str):
            raise NoteStoreError(f"{where}.owner: expected a string")
        if not isinstance(admin, bool):
            raise NoteStoreError(f"{where}.admin: expected true or false")
        out.append(
            (
                _check_token(token, f"{where}.token"),
                Principal(_check_owner(owner, f"{where}.owner"), admin),
            )
        )
    return out


def write_tokens_file(
    path: Path, entries: list[tuple[str, Principal]], *, exclusive: bool = False
) -> bool:
    """Write a tokens file readable by its owner only (mode 0600), atomically.

    Parameters
    ----------
    exclusive : bool
        Do not replace an existing file (two servers starting together create one token).

    Returns
    -------
    bool
        False when ``exclusive`` and the file existed already (nothing written).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"tokens": [{"token": t, "owner": p.owner, "admin": p.admin} for t, p in entries]}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=2)
            fh.write("\n")
        if not exclusive:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)  # atomic, and fails when the file exists
        except FileExistsError:
            return False
        return True
    finally:
        tmp.unlink(missing_ok=True)


def default_tokens_file(home: Path | None = None) -> Path:
    """``<WORKBENCH_HOME>/tokens.json``."""
    from workbench.notes.db import workbench_home

    return (home or workbench_home()) / "tokens.json"


@dataclass(frozen=True)
class LoadedTokens:
    """Result of :func:`load_tokens`.

    Attributes
    ----------
    registry : TokenRegistry
        Every token.
    sources : list of str
        Where they came from (environment variable names, file paths).
    created_token : str or None
        The token written on this first start (print it once), else None.
    created_file : Path or None
        The file it was written to.
    """

    registry: TokenRegistry
    sources: list[str]
    created_token: str | None = None
    created_file: Path | None = None


def load_tokens(
    env: Mapping[str, str] | None = None, *, create: bool = False, home: Path | None = None
) -> LoadedTokens:
    """Collect the tokens from the environment and the tokens file.

    Parameters
    ----------
    env : mapping, optional
        Default ``os.environ``.
    create : bool
        With nothing configured, create ``$WORKBENCH_HOME/tokens.json`` holding one new
        administrator token for owner ``local``.
    home : Path, optional
        Workbench data folder (default ``$WORKBENCH_HOME``).

    Raises
    ------
    NoteStoreError
        A malformed variable or file; no token at all and ``create`` is False.
    """
    env = os.environ if env is None else env
    registry = TokenRegistry()
    sources: list[str] = []
    api = env.get("WORKBENCH_API_TOKENS", "")
    if api.strip():
        for token, owner in parse_api_tokens(api):
            registry.add(token, Principal(owner), "WORKBENCH_API_TOKENS")
        sources.append("WORKBENCH_API_TOKENS")
    admin = env.get("WORKBENCH_ADMIN_TOKEN", "").strip()
    if admin:
        registry.add(admin, Principal(ADMIN_OWNER, admin=True), "WORKBENCH_ADMIN_TOKEN")
        sources.append("WORKBENCH_ADMIN_TOKEN")
    explicit = env.get("WORKBENCH_TOKENS_FILE", "").strip()
    if explicit and not Path(explicit).expanduser().is_file():
        raise NoteStoreError(f"WORKBENCH_TOKENS_FILE={explicit!r}: no such file")
    file = Path(explicit).expanduser() if explicit else default_tokens_file(home)
    if file.is_file():
        for token, principal in read_tokens_file(file):
            registry.add(token, principal, str(file))
        sources.append(str(file))
    if len(registry):
        return LoadedTokens(registry, sources)
    if not create:
        raise NoteStoreError(
            "no API token configured: set WORKBENCH_API_TOKENS and/or WORKBENCH_ADMIN_TOKEN, "
            "or WORKBENCH_TOKENS_FILE"
        )
    token = secrets.token_urlsafe(_TOKEN_BYTES)
    principal = Principal(LOCAL_OWNER, admin=True)
    if not explicit:
        from workbench.notes.db import ensure_home

        ensure_home(file.parent)  # a clear SettingError naming WORKBENCH_HOME
    if not write_tokens_file(file, [(token, principal)], exclusive=True):
        # another server created it meanwhile: use that one
        for other, other_principal in read_tokens_file(file):
            registry.add(other, other_principal, str(file))
        return LoadedTokens(registry, [str(file)])
    registry.add(token, principal, str(file))
    return LoadedTokens(registry, [str(file)], created_token=token, created_file=file)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header value, else None."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None
