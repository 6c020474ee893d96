"""`mnemex token create|list|revoke`: bearer tokens for the REST API and MCP over HTTP."""

from __future__ import annotations

import sys

import typer
from rich.table import Table

from mnemex.interfaces.cli._app import JSON_OPTION, app, command, console, emit, open_store
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
    with open_store() as store:
        tokens = store.tokens.list(tenant)

    def render(found: list[object]) -> None:
        table = Table("tenant", "name", "created", "last used", "revoked")
        table.add_column("id", no_wrap=True, min_width=30)
        for token in tokens:
            table.add_row(
                token.tenant,
                token.name or "",
                token.created_at.isoformat(timespec="seconds"),
                token.last_used.isoformat(timespec="seconds") if token.last_used else "",
                token.revoked_at.isoformat(timespec="seconds") if token.revoked_at else "",
                token.id,
            )
        console.print(table if found else "no tokens")

    emit(tokens, as_json, render)


@command("revoke", on=token_app)
def revoke(
    token_id: str = typer.Argument(..., help="The token id (tok_...), from `mnemex token list`."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Revoke a token: requests carrying it are refused from now on."""
    with open_store() as store:
        token = store.tokens.revoke(token_id)
    emit(token, as_json, lambda t: console.print(f"revoked {t.id} (tenant {t.tenant})"))
