"""What kind of thing a common technology name is: editors, databases, languages, ...

A category table of widely used names (not any benchmark's values), read with the analysis
gazetteer's aliases ("postgres" is PostgreSQL) and its companies (an ORG there is an employer-like
value). The ledger uses it to tell which key a verb-only statement changes ("I switched to
Neovim": an editor). Names that are also common words ("Go", "Rust", "Arc") are in the table;
the statement still has to name them as the value of a change, which is what makes them names.
"""

from __future__ import annotations

import functools

from mnemex import gazetteer
from mnemex.text import value_key

# kind -> names, "|"-separated; one kind per name (the first table that lists it wins).
_TABLE: dict[str, str] = {
    "editor": """
        Vim|Neovim|nvim|Emacs|Doom Emacs|Spacemacs|VS Code|Visual Studio Code|VSCode|VSCodium|
        Visual Studio|Helix|Zed|Sublime Text|Sublime|Atom|Kakoune|Nano|GNU nano|Micro|Lapce|
        IntelliJ|IntelliJ IDEA|PyCharm|WebStorm|GoLand|CLion|RubyMine|PhpStorm|Rider|DataGrip|
        RustRover|Fleet|Android Studio|Xcode|Eclipse|NetBeans|Notepad++|TextMate|BBEdit|
        CotEditor|Geany|Kate|gedit|Cursor|Windsurf|Brackets|Spyder|RStudio|
        Jupyter|JupyterLab|Replit|Code::Blocks|Qt Creator|Thonny|IDLE|Komodo|Light Table""",
    "database": """
        PostgreSQL|Postgres|MySQL|MariaDB|SQLite|MongoDB|Mongo|Redis|Valkey|KeyDB|Memcached|
        Cassandra|ScyllaDB|DynamoDB|CockroachDB|TiDB|YugabyteDB|Neo4j|ArangoDB|SurrealDB|
        ClickHouse|DuckDB|Snowflake|BigQuery|Redshift|Firestore|Firebase|Supabase|PlanetScale|
        Couchbase|CouchDB|RethinkDB|InfluxDB|TimescaleDB|QuestDB|Elasticsearch|OpenSearch|
        Oracle Database|Oracle DB|SQL Server|MS SQL|MSSQL|Db2|Aurora|Cosmos DB|FaunaDB|
        etcd|LevelDB|RocksDB|H2|HSQLDB|FoundationDB|Pinot|Vitess|Dgraph|
        Pinecone|Weaviate|Qdrant|Milvus|pgvector|LanceDB|Turso|libSQL|EdgeDB""",
    "language": """
        Python|Rust|Go|Golang|TypeScript|JavaScript|Kotlin|Elixir|Erlang|Java|Scala|Swift|
        Objective-C|C|C++|C#|F#|Ruby|PHP|Perl|Haskell|OCaml|Zig|Nim|Crystal|Clojure|
        ClojureScript|Julia|R|MATLAB|Dart|Lua|Gleam|Elm|PureScript|ReasonML|Racket|Scheme|
        Common Lisp|Lisp|Fortran|COBOL|Ada|Pascal|Delphi|Visual Basic|VB.NET|Groovy|Solidity|
        Mojo|Odin|Bash|PowerShell|Prolog|Smalltalk|Tcl|Raku|
        CoffeeScript|WebAssembly|SQL""",
    "operating_system": """
        Ubuntu|Kubuntu|Xubuntu|Debian|Fedora|Arch|Arch Linux|Manjaro|EndeavourOS|NixOS|
        Gentoo|openSUSE|SUSE|Linux Mint|Pop!_OS|Pop OS|elementary OS|Zorin OS|CentOS|
        Rocky Linux|AlmaLinux|RHEL|Red Hat Enterprise Linux|Alpine|Alpine Linux|Void Linux|
        Slackware|Kali|Kali Linux|Linux|GNU/Linux|macOS|Mac OS|OS X|Windows|Windows 10|
        Windows 11|Windows XP|Windows 7|FreeBSD|OpenBSD|NetBSD|ChromeOS|Chrome OS|Solaris|
        Haiku|Qubes|Qubes OS|Asahi Linux|Bazzite|SteamOS|Garuda Linux|MX Linux|
        Raspberry Pi OS|Raspbian|WSL|iOS|iPadOS|Android|HarmonyOS""",
    "browser": """
        Firefox|Chrome|Google Chrome|Chromium|Safari|Microsoft Edge|Brave|Vivaldi|Opera|
        Opera GX|Arc Browser|LibreWolf|Tor Browser|Waterfox|Floorp|Zen Browser|
        Mullvad Browser|DuckDuckGo Browser|Orion|Ungoogled Chromium|Pale Moon|SeaMonkey|
        qutebrowser|Lynx|w3m|Samsung Internet|Yandex Browser|Internet Explorer|Ladybird""",
    "cloud": """
        AWS|Amazon Web Services|GCP|Google Cloud|Google Cloud Platform|Azure|Microsoft Azure|
        DigitalOcean|Hetzner|Linode|Akamai|Vultr|OVH|OVHcloud|Scaleway|Oracle Cloud|OCI|
        IBM Cloud|Alibaba Cloud|Fly.io|Render|Railway|Heroku|Vercel|Netlify|Cloudflare|
        Cloudflare Workers|Cloudflare Pages|Deno Deploy|Firebase Hosting|Upcloud|Backblaze|
        Wasabi|Rackspace|Exoscale|Civo|Hostinger|Bluehost|GoDaddy|Koyeb|Northflank|
        Coolify|CapRover|Dokku|Tencent Cloud|Equinix Metal""",
    "deploy": """
        Terraform|OpenTofu|Ansible|Pulumi|Helm|Argo CD|ArgoCD|FluxCD|Spinnaker|Kamal|
        Capistrano|Chef|Puppet|SaltStack|CloudFormation|AWS CDK|CDK|
        Serverless Framework|Nomad|Kubernetes|k8s|Docker Compose|Docker Swarm|Kustomize|
        Tanka|Octopus Deploy|Waypoint|Crossplane|Bicep|Packer|Vagrant|Skaffold|
        Jenkins X|Keptn""",
    "ci": """
        GitHub Actions|GitLab CI|Jenkins|CircleCI|Travis CI|Buildkite|TeamCity|Bamboo|
        Woodpecker|Azure Pipelines|Bitbucket Pipelines|AppVeyor|Semaphore|Codemagic|
        Bitrise|Tekton|Earthly""",
    "framework": """
        React|Vue|Angular|Svelte|SvelteKit|SolidJS|Next.js|Nuxt|Remix|Astro|Gatsby|
        Ember|Django|Flask|FastAPI|Rails|Ruby on Rails|Laravel|Symfony|Spring Boot|
        Express.js|NestJS|Phoenix|Gin|Actix|Axum|ASP.NET|Blazor|
        Flutter|React Native|Ionic|Electron|Tauri|Qt|SwiftUI|Jetpack Compose|htmx|Alpine.js|
        jQuery|Bootstrap|Tailwind|Tailwind CSS""",
    "shell": "bash|zsh|fish|Nushell|nu|PowerShell|tcsh|csh|ksh|dash|Oh My Zsh|xonsh|Elvish",
    "terminal": """
        iTerm2|iTerm|Alacritty|kitty|WezTerm|Ghostty|Terminator|Konsole|
        GNOME Terminal|Windows Terminal|tmux|Zellij|Tilix|urxvt""",
    "queue": """
        Kafka|Apache Kafka|RabbitMQ|NATS|Pulsar|Apache Pulsar|SQS|Amazon SQS|Kinesis|
        Google Pub/Sub|Pub/Sub|ActiveMQ|ZeroMQ|Redpanda|Celery|Sidekiq|Redis Streams|
        Azure Service Bus|EventBridge|Mosquitto|MQTT""",
}


def _names(block: str) -> list[str]:
    return [n.strip() for n in block.replace("\n", "").split("|") if n.strip()]


@functools.cache
def _kinds() -> dict[str, str]:
    """value_key of a name -> its kind."""
    table: dict[str, str] = {}
    for kind, block in _TABLE.items():
        for name in _names(block):
            table.setdefault(value_key(name), kind)
    return table


@functools.cache
def _gazetteer() -> dict[str, tuple[str, str]]:
    """value_key of a gazetteer form -> (canonical name, label)."""
    return {value_key(form): pair for form, pair in gazetteer.canonical_map().items()}


def kind_of(value: str) -> str | None:
    """The kind of a well-known name ("Neovim" -> "editor", "Stripe" -> "org"), else None."""
    key = value_key(value)
    found = _kinds().get(key)
    if found is not None:
        return found
    canonical = _gazetteer().get(key)
    if canonical is None:
        return None
    name, label = canonical
    if label == gazetteer.ORG:
        return "org"
    return _kinds().get(value_key(name))
