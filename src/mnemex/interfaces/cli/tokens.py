"""`mnemex token create|list|revoke`: bearer tokens for the REST API and MCP over HTTP."""

from __future__ import annotations

import sys
from typing import Any

import typer

from mnemex.interfaces.cli._app import JSON_OPTION, app, command, console, emit, open_store
from mnemex.interfaces.cli._output import emit_list, say, stamp
from mnemex.models import to_jsonable

token_app = typer.Typer(help="Bearer tokens: each one confines its requests to one tenant.")
app.add_typer(token_app, name="token", no_args_is_help=True)


@command("create", on=token_app)
def create(
    tenant: str = typer.Option(..., "--tenant", help="The tenant the token is bound to."),
    name: str | None = typer.Option(None, help="A label to recognise the token by."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Create a token; the secret is printed once, as the last word of the output."""
    with open_store() as store:
        token, secret = store.tokens.create(tenant, name)
    if as_json:
        emit({"token": to_jsonable(token), "secret": secret}, True)
        return
    sys.stdout.write(f"token {token.id} for tenant {token.tenant} (shown once): {secret}\n")


@command("list", on=token_app)
def list_(
    tenant: str | None = typer.Option(None, "--tenant", help="Only this tenant's tokens."),
    as_json: bool = JSON_OPTION,
) -> None:
    """List tokens (never their secrets)."""
    with open_store(create=False) as store:
        tokens = store.tokens.list(tenant)

    def render(token: Any) -> None:
        used = f"last used {stamp(token.last_used)}" if token.last_used else "never used"
        revoked = f"  revoked {stamp(token.revoked_at)}" if token.revoked_at else ""
        name = f" ({token.name})" if token.name else ""
        created = f"created {stamp(token.created_at)}"
        say(f"{token.id}  tenant {token.tenant}{name}  {created}  {used}{revoked}")

    emit_list(tokens, as_json, False, lambda t: t.id, render, "no tokens")


@command("revoke", on=token_app)
def revoke(
    token_id: str = typer.Argument(..., help="The token id (tok_...), from `mnemex token list`."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Revoke a token: requests carrying it are refused from now on."""
    with open_store(create=False) as store:
        token = store.tokens.revoke(token_id)
    emit(token, as_json, lambda t: console.print(f"revoked {t.id} (tenant {t.tenant})"))
