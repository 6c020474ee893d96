"""Labelled cases for the key of a verb-only statement: (the subject's keys, statement) -> key.

Each line is `keys | statement | expected`: the subject's current values (relation=value, ";"
between keys), a statement whose verb names no key, and the key it changes, or `-` when no key
should be taken without asking (the statement is ambiguous or states no key). Written by hand
for calibration (eval/value_keys.py), with common real-world names and made-up ones; none of
the ledger benchmark's held-out wordings or value lists.
"""

from __future__ import annotations

CASES = """
editor=Vim | I switched to Neovim. | editor
editor=Vim; city=Lisbon | Actually I switched to Neovim last month. | editor
editor=Emacs; database=MySQL | I moved to VS Code. | editor
editor=Emacs; database=MySQL | I moved to PostgreSQL. | database
editor=Sublime Text; language=Python | I started using Rust. | language
editor=Sublime Text; language=Python | I started using Zed. | editor
operating_system=Ubuntu; editor=Vim | I now use Fedora. | operating_system
operating_system=Windows; browser=Chrome | I went with Firefox. | browser
operating_system=Windows; browser=Chrome | I went with macOS. | operating_system
city=Lisbon; employer=Acme | I moved to Berlin. | city
city=Lisbon; employer=Acme | I moved to Stripe. | employer
employer=Acme | Bob moved to Globex. | employer
employer=Acme; city=Toronto | Bob moved to Vancouver. | city
employer=Initech; city=Oslo | Mira moved to Soylent. | -
employer=Initech | Mira joined Vandelay Industries. | employer
city=Austin | Tom moved to Denver last spring. | city
city=Austin | Tom relocated to Phoenix. | city
cloud_provider=AWS | Ines moved to Hetzner. | cloud_provider
cloud_provider=AWS; database=DynamoDB | I switched to Google Cloud. | cloud_provider
cloud_provider=AWS; database=DynamoDB | I switched to Firestore. | database
deploy_tool=Ansible | Priya switched to Terraform. | deploy_tool
deploy_tool=Ansible; ci=Jenkins | Priya moved to GitHub Actions. | ci
deploy_tool=Ansible; ci=Jenkins | Priya moved to Pulumi. | deploy_tool
shell=bash | I switched to fish. | shell
shell=bash; terminal=iTerm2 | I switched to WezTerm. | terminal
shell=zsh; terminal=Alacritty | I now use Nushell. | shell
framework=Django; language=Python | Leo went with FastAPI. | framework
framework=Django; language=Python | Leo went with Go. | language
queue=RabbitMQ | Nadia switched to NATS. | queue
editor=Vim | I switched from Vim to Helix. | editor
editor=Vim; city=Lisbon | Switched from Vim to Kakoune. | editor
editor=Quillpad; city=Lisbon | Not Quillpad anymore, Scribblr now. | editor
editor=Quillpad; database=Stashdb | I'm using Tessera instead of Stashdb. | database
editor=Quillpad; database=Stashdb | I use Penwright instead of Quillpad now. | editor
editor=Vim | Vim -> Neovim. | editor
database=MySQL; editor=Vim | MySQL -> MariaDB. | database
city=Paris; employer=Acme | Acme -> Hooli. | employer
editor=Vim | I use Quillpad now. | editor
editor=Vim; language=Go | I use Quillpad now. | -
editor=Vim; language=Go | I started using Glimmer. | -
editor=Vim; language=Go; city=Rome | I moved to Glimmer. | -
browser=Firefox | I switched to Brave. | browser
browser=Firefox; editor=Vim | I switched to Vivaldi. | browser
browser=Firefox; editor=Vim | I now use Lapce. | editor
employer=Acme; team=Payments | Raj moved to the Search team. | team
employer=Acme; team=Payments | Raj joined Umbrella Corp. | employer
phone_number=+1 415 555 0101 | My number is now +1 415 555 0199. | phone_number
phone_number=+1 415 555 0101; city=Lagos | I switched to +44 7700 900123. | phone_number
email=ana@example.com | Ana switched to ana.b@proton.me. | email
email=ana@example.com; phone_number=+351 912 000 111 | Ana moved to +351 913 222 333. | phone_number
| I use Neovim. | editor
| I use PostgreSQL. | database
| I switched to Arch Linux. | operating_system
| I moved to Lisbon. | city
| Kim moved to Nairobi. | city
| I use Blorbo. | -
| Kim switched to Zarnak. | -
| I went with Firefox. | browser
| I started using Kotlin. | language
| Ines moved to Azure. | cloud_provider
| I joined Datadog. | employer
| Sam moved to Shopify. | employer
manager=Ana Lopez | Sam switched to Helix. | editor
manager=Ana Lopez; employer=Acme | Sam moved to Zalando. | employer
home_town=Cork; city=Dublin | I moved to Galway. | city
home_town=Cork | I moved to Leeds. | city
birth_city=Porto; city=Lyon | Eva relocated to Nice. | city
language=Python | I went back to Python. | language
language=Python; editor=Vim | I went back to Vim. | editor
editor=Vim; favorite_food=ramen | I switched to tacos. | -
editor=VS Code; operating_system=macOS | I switched to Linux. | operating_system
editor=VS Code; operating_system=macOS | I switched to Windows. | operating_system
editor=VS Code; operating_system=macOS | I switched to Cursor. | editor
database=PostgreSQL; cloud_provider=AWS | Luis migrated to Supabase. | database
database=PostgreSQL; cloud_provider=AWS | Luis migrated to Fly.io. | cloud_provider
database=PostgreSQL; queue=Kafka | Luis migrated to Redpanda. | queue
language=Java; framework=Spring Boot | Omar moved to Kotlin. | language
language=Java; framework=Spring Boot | Omar moved to Quarkus. | -
language=TypeScript; framework=React | I switched to Svelte. | framework
language=TypeScript; framework=React | I switched to Elm. | language
operating_system=Debian; shell=bash | I switched to NixOS. | operating_system
operating_system=Debian; shell=bash | I switched to zsh. | shell
editor=Emacs; operating_system=Fedora | Actually I moved to Doom Emacs. | editor
editor=Emacs; operating_system=Fedora | I'm on Silverblue now. | -
city=Berlin; employer=SAP | Lena moved to Munich. | city
city=Berlin; employer=SAP | Lena moved to Siemens. | employer
city=Berlin; employer=SAP | Lena moved to Frobnicate. | -
city=Tokyo | Yuki moved to Osaka. | city
employer=Google | Dev moved to Anthropic. | employer
employer=Google; city=Zurich | Dev moved to OpenAI. | employer
employer=Google; city=Zurich | Dev moved to Geneva. | city
team=Platform | Ife moved to the Growth team. | team
team=Platform; city=Accra | Ife joined the Identity squad. | team
editor=Vim; database=SQLite | I went with DuckDB. | database
editor=Vim; database=SQLite | I went with Micro. | editor
browser=Safari; operating_system=iOS | I switched to Android. | operating_system
browser=Safari; operating_system=iOS | I switched to Chrome. | browser
cloud_provider=DigitalOcean; deploy_tool=Kamal | Zoe switched to Render. | cloud_provider
cloud_provider=DigitalOcean; deploy_tool=Kamal | Zoe switched to Capistrano. | deploy_tool
cloud_provider=DigitalOcean; deploy_tool=Kamal | Zoe switched to Wobbleship. | -
editor=Nano | Pat now uses Vim. | editor
editor=Nano; language=PHP | Pat now uses Laravel. | -
editor=Nano; language=PHP | Pat now uses Ruby. | language
language=Ruby; framework=Rails | Pat moved from Rails to Phoenix. | framework
language=Ruby; framework=Rails | Pat moved from Ruby to Elixir. | language
database=MongoDB | Noor went from MongoDB to Postgres. | database
city=Madrid; employer=Telefonica | I went from Telefonica to Cabify. | employer
city=Madrid; employer=Telefonica | I went from Madrid to Seville. | city
editor=Vim | I switched to Sublime. | editor
operating_system=Ubuntu | I use Mint now. | operating_system
operating_system=Ubuntu; editor=Vim | Gus started using Pop!_OS. | operating_system
operating_system=Ubuntu; editor=Vim | Gus started using JetBrains Fleet. | editor
"""
