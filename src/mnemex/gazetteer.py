"""Names spaCy's small model mislabels or misses: technologies, products and companies.

Each entry maps a surface form to (canonical name, label). Forms that are also common English words
("linear", "swift", "rust", "go") only match when capitalised, so "go with option B" stays a verb.
"""

from __future__ import annotations

import functools
import re

# A medicine's generic name, by the stems of the WHO's International Nonproprietary Names
# ("metoprolol", "apixaban", "empagliflozin", "erenumab"): in lowercase too.
_INN_STEMS = (
    "olol|pril|sartan|dipine|statin|prazole|tidine|xaban|gliflozin|gliptin|glutide|formin|"
    "profen|fenac|coxib|oxetine|triptan|lukast|setron|parin|azepam|azolam|cillin|mycin|"
    "cycline|floxacin|oxacin|conazole|vir|mab|tinib|dronate|semide|thiazide|sone|olone|caine|"
    "afil|terol|tropium|izine|idine"
)
# Common medicines no stem above names.
_MEDICINES = (
    "sertraline|citalopram|escitalopram|fluoxetine|venlafaxine|duloxetine|mirtazapine|"
    "amitriptyline|nortriptyline|bupropion|quetiapine|olanzapine|aripiprazole|lithium|"
    "levothyroxine|thyroxine|insulin|warfarin|aspirin|paracetamol|acetaminophen|codeine|"
    "morphine|tramadol|gabapentin|pregabalin|lamotrigine|levetiracetam|topiramate|"
    "methotrexate|hydroxychloroquine|melatonin|zopiclone|zolpidem|fexofenadine|"
    "loratadine|adrenaline|epinephrine|salbutamol|allopurinol|spironolactone|finasteride"
)
MEDICINE = re.compile(
    rf"(?<![\w-])(?!(?i:cholesterol))(?:[A-Za-z][a-z]{{2,}}(?:{_INN_STEMS})|(?i:{_MEDICINES}))"
    r"(?![\w-])"
)
TECH = "TECH"
ORG = "ORG"
PRODUCT = "PRODUCT"
CONCEPT = "CONCEPT"

_TECH = """
Python|TypeScript|JavaScript|Java|Kotlin|Ruby|PHP|C++|C#|Haskell|Elixir|Erlang|Scala|Clojure|
Golang|Perl|Lua|Julia|Fortran|COBOL|Dart|Zig|OCaml|SQL|GraphQL|HTML|CSS|Bash|PowerShell|
React|React Native|Flutter|Vue|Svelte|SvelteKit|Angular|Django|Flask|FastAPI|Rails|
Ruby on Rails|Laravel|Next.js|
Nuxt|Node.js|Deno|Bun|Express.js|jQuery|Tailwind|Bootstrap|PyTorch|TensorFlow|Keras|NumPy|
pandas|scikit-learn|spaCy|Hugging Face|LangChain|Pydantic|SQLAlchemy|Celery|pytest|unittest|
Jest|Playwright|Selenium|Cypress|webpack|Vite|Babel|ESLint|Prettier|ruff|mypy|Poetry|
pip|npm|pnpm|Yarn|Cargo|Maven|Gradle|PostgreSQL|MySQL|MariaDB|SQLite|MongoDB|Redis|Memcached|
Elasticsearch|OpenSearch|Cassandra|DynamoDB|CockroachDB|ClickHouse|Snowflake|BigQuery|
Kafka|RabbitMQ|NATS|Docker|Kubernetes|Helm|Terraform|Pulumi|Ansible|Nginx|
Linux|Ubuntu|Debian|Fedora|Arch Linux|macOS|Windows|FreeBSD|Git|GitHub|GitLab|Bitbucket|
Jenkins|CircleCI|GitHub Actions|Travis CI|Vim|Neovim|Emacs|VS Code|IntelliJ|PyCharm|
WebStorm|Xcode|Android Studio|Jupyter|Grafana|Prometheus|Datadog|Sentry|Kibana|Airflow|
Spark|Hadoop|dbt|Tableau|Excel|Jira|Confluence|Notion|Figma|Sketch|Trello|Asana|Obsidian|
Postman|Heroku|Vercel|Netlify|Cloudflare|AWS|GCP|Azure|EC2|S3|Lambda|ONNX|LLVM|WebAssembly|
OAuth|JWT|gRPC|Protobuf|JSON|YAML|TOML|Markdown|LaTeX|CUDA|OpenGL|Vulkan|Unity|Unreal|
Objective-C|Parquet|Flink|ZooKeeper|Solr|Lucene|Tomcat|RDS|EMR|EKS|ECS|SQS|SNS|CloudFront|
Fargate|Cloud Run|Cloud Functions|Pub/Sub|Cosmos DB|
SciPy|Matplotlib|seaborn|Plotly|Bokeh|Polars|PySpark|Numba|Cython|JAX|XGBoost|LightGBM|
CatBoost|statsmodels|SymPy|NetworkX|OpenCV|scikit-image|Dask|xarray|cartopy|GeoPandas|Shapely|
GDAL|QGIS|PostGIS|netCDF|HDF5|Zarr|xESMF|Conda|Anaconda|Miniconda|mamba|micromamba|
JupyterLab|Jupyter Notebook|Google Colab|RStudio|tidyverse|dplyr|ggplot2|knitr|R Markdown|Quarto|
Stata|SPSS|MATLAB|Simulink|Mathematica|Slurm|Lmod|OpenMP|Snakemake|Nextflow|Airbyte|Fivetran|
Debezium|Dagster|Metabase|Looker|Power BI|Databricks|Delta Lake|Trino|DuckDB|pgvector|Pinecone|
Weaviate|Milvus|Qdrant|FAISS|MLflow|Kubeflow|Streamlit|Gradio|Vagrant|Istio|Linkerd|Argo CD|
Kustomize|minikube|Podman|containerd|Traefik|HAProxy|Varnish|Logstash|Fluentd|Jaeger|
OpenTelemetry|Splunk|Bazel|CMake|esbuild|Rollup|Storybook|Gatsby|Jekyll|Eleventy|htmx|Redux|
MobX|Zustand|RxJS|Three.js|D3.js|Chart.js|Socket.IO|Prisma|TypeORM|Sequelize|Mongoose|
Hibernate|Spring Boot|Quarkus|Micronaut|ASP.NET|.NET|Blazor|Entity Framework|Actix|Tokio|
Symfony|WordPress|Drupal|Magento|Strapi|Contentful|Supabase|Firebase|Firestore|Hasura|tRPC|
OpenAPI|Swagger|CloudFormation|Jetpack Compose|SwiftUI|UIKit|Retrofit|OkHttp|Ktor|
Kotlin Multiplatform|Expo|Xamarin|CocoaPods|Fastlane|Crashlytics|Bitrise|JMeter|tmux|zsh|
Homebrew|NixOS|CentOS|Rocky Linux|RHEL|Raspberry Pi|Arduino|SSH|WebSocket|WebRTC|MQTT|SAML|
LDAP|WireGuard|OpenVPN|Tailscale|Sublime Text|Visual Studio|CLion|GoLand|DataGrip|
RubyMine|PhpStorm|Notepad++|Terraform Cloud
"""
# Official names that put the maker or foundation first: "Apache Spark" is Spark, "Amazon S3"
# and "AWS S3" are S3. Each vendor and the known names it may stand before.
_VENDOR_FORMS = {
    "Apache": "Kafka|Spark|Hadoop|Airflow|Cassandra|Hive|Iceberg|Parquet|Flink|Beam|Superset|"
    "Druid|ZooKeeper|Solr|Lucene|Tomcat|Maven|Pulsar",
    "Amazon": "S3|EC2|EMR|EKS|ECS|RDS|Redshift|Kinesis|Aurora|SQS|SNS|CloudFront|Athena|DynamoDB",
    "AWS": "S3|EC2|EMR|EKS|ECS|RDS|Redshift|Kinesis|Aurora|SQS|SNS|CloudFront|Glue|Athena|"
    "Fargate|Lambda|DynamoDB",
    "Google": "BigQuery|Cloud Run|Cloud Functions|Pub/Sub|Dataflow",
    "GCP": "BigQuery|Cloud Run|Cloud Functions|Pub/Sub|Dataflow",
    "Azure": "Cosmos DB",
}
_TECH_CASED = (
    "Go|Rust|Swift|Linear|Helix|Spring|Express|Slack|Zoom|Signal|Teams|Pulsar|R|C|Black|REST|"
    "Hive|Iceberg|Beam|Superset|Druid|Redshift|Kinesis|Aurora|Glue|Athena|Dataflow|"
    "Shiny|Vault|Consul|Nomad|Envoy|Prefect|Locust"
)
# Names whose lowercase form is an everyday word ("a bun", "celery sticks", "our cargo", "the
# outlook", "stripe", "poetry"): only the capitalised form is the name.
_EVERYDAY = frozenset(
    "Bun Cargo Celery Jest Flask Helm Sketch Unity Notion Poetry Yarn Loom Confluence Windows "
    "Bootstrap Canonical Oracle Stripe Discord Outlook Intercom Obsidian Parquet Cypress Dart "
    "Fedora Angular Ruby Selenium Sentry Postman Maven Rails Bash Elixir Telegram Excel Tableau "
    "Playwright Peloton Whoop Headspace Kayak Messenger Greenhouse Rollup Expo Concur Coda Gusto "
    "Quicken Audible Varnish Mongoose Hibernate Shapely Storybook Vagrant Workday Rippling "
    "Procreate Blender Quarto Bokeh Anaconda".split()
)
_ORG = """
Google|Microsoft|Apple|Amazon|Meta|Facebook|OpenAI|Anthropic|Stripe|Netflix|Spotify|Uber|
Airbnb|IBM|Intel|AMD|Nvidia|Oracle|Salesforce|Adobe|Shopify|Atlassian|Mozilla|Red Hat|
Canonical|DeepMind|Tesla|Samsung|Sony|Monzo|Revolut|Wise|Adyen|PayPal|Twitter|LinkedIn|
Dropbox|Zalando|Booking.com|Mistral AI|Hugging Face Inc|Mixpanel|Twilio|SAP
"""
_PRODUCT = """
iPhone|iPad|MacBook|Android|ChatGPT|Claude|Gemini|Copilot|GitHub Copilot|Kindle|PlayStation|
Xbox|Nintendo Switch|WhatsApp|Telegram|Discord|Gmail|Outlook|Google Docs|Google Drive|
Chrome|Firefox|Safari|Photoshop|Model 3|Model Y|PagerDuty|Opsgenie|1Password|LastPass|
Bitwarden|Okta|Auth0|Miro|Loom|Calendly|Zendesk|Intercom|HubSpot|Mailchimp|Airtable|ClickUp|
Basecamp|Google Meet|Microsoft Teams|Google Calendar|Google Sheets|Dropbox Paper|
Strava|Garmin Connect|Zwift|Peloton|Fitbit|Apple Watch|Oura|MyFitnessPal|Headspace|Duolingo|
Audible|Goodreads|YouTube|Instagram|TikTok|Snapchat|Pinterest|Reddit|Messenger|Venmo|Zelle|
Cash App|Splitwise|YNAB|Quicken|TurboTax|QuickBooks|Xero|FreshBooks|Gusto|Workday|BambooHR|
Rippling|Greenhouse|Expensify|Concur|Webex|Skype|FaceTime|Google Maps|Waze|Citymapper|Lyft|
DoorDash|Uber Eats|Deliveroo|Instacart|Expedia|Skyscanner|Google Flights|TripIt|Evernote|
OneNote|Todoist|OmniFocus|Google Keep|Apple Notes|Roam Research|Logseq|Zotero|Mendeley|EndNote|
Overleaf|Grammarly|Canva|Lightroom|Premiere Pro|Final Cut Pro|DaVinci Resolve|Audacity|
GarageBand|Logic Pro|Ableton Live|Procreate|Blender|AutoCAD|Revit|SketchUp|SolidWorks|
Fusion 360|Microsoft Word|PowerPoint|OneDrive|SharePoint|Google Slides|iCloud|WeTransfer|Coda|
Monday.com|Smartsheet|Wrike|Pivotal Tracker|Sourcegraph|Vanta|Drata|Whoop|Kayak
"""
# Standards, regulations and named practices: concepts, not the organisations spaCy makes them.
_CONCEPT = """
GDPR|HIPAA|SOC 2|ISO 27001|PCI DSS|CCPA|OKRs|KPIs|CI/CD|DevOps|event sourcing|CQRS
"""
_CONCEPT_CASED = "Agile|Scrum|Kanban|TDD|BDD|DDD"
# Role nouns of job titles ("Director of Engineering", "as a developer"): what someone is, never
# a thing (not "editor": the tool key).
ROLE_NOUNS = frozenset(
    """
    director manager engineer head lead officer president vp vice chief architect designer
    developer analyst scientist consultant coordinator specialist administrator associate
    principal intern recruiter producer strategist owner founder cofounder co-founder
    ceo cto cfo coo cpo cmo ciso
    """.split()
)

# Other spellings of the same thing: alias -> canonical.
ALIASES = {
    "postgres": "PostgreSQL",
    "psql": "PostgreSQL",
    "k8s": "Kubernetes",
    "vscode": "VS Code",
    "visual studio code": "VS Code",
    "nodejs": "Node.js",
    "nextjs": "Next.js",
    "mongo": "MongoDB",
    "nvim": "Neovim",
    "sklearn": "scikit-learn",
    "gh actions": "GitHub Actions",
    "golang": "Go",
    "js": "JavaScript",
    "gha": "GitHub Actions",
    "ts": "TypeScript",
    "colab": "Google Colab",
    "d3": "D3.js",
    "threejs": "Three.js",
    "mpl": "Matplotlib",
    "jupyter lab": "JupyterLab",
    "msword": "Microsoft Word",
    "ms word": "Microsoft Word",
    "gmaps": "Google Maps",
    "react.js": "React",
    "reactjs": "React",
    "vue.js": "Vue",
    "obj-c": "Objective-C",
    "objc": "Objective-C",
}


def ambiguous() -> frozenset[str]:
    """Names that are also common words; skipped at the start of a sentence ("Go with B")."""
    return frozenset(_split(_TECH_CASED)) | {"Wise", "Meta", "Apple", "Amazon", "Claude"}


# Technology names that are hosted apps a person signs up to: products, not technologies.
APPS = frozenset(
    "Slack Zoom Teams Signal Figma Sketch Notion Jira Confluence Trello Asana Obsidian Linear "
    "Postman Excel Tableau Datadog Sentry Heroku Vercel Netlify GitHub GitLab Bitbucket "
    "CircleCI Looker Metabase Databricks Splunk Supabase Firebase "
    "Crashlytics Bitrise Tailscale".split()
)


def _split(block: str) -> list[str]:
    return [item.strip() for item in block.replace("\n", "").split("|") if item.strip()]


def entries() -> list[tuple[str, str, str, bool]]:
    """(surface form, canonical name, label, case-sensitive) for every gazetteer name."""
    rows: list[tuple[str, str, str, bool]] = []
    for name in _split(_TECH):
        rows.append((name, name, TECH, name in _EVERYDAY))
    for name in _split(_TECH_CASED):
        rows.append((name, name, TECH, True))
    for name in _split(_ORG):
        rows.append((name, name, ORG, name in {"Wise", "Meta", "Apple", "Amazon"} | _EVERYDAY))
    for name in _split(_PRODUCT):
        cased = name in {"Claude", "Gemini", "Chrome", "Safari"} | _EVERYDAY
        rows.append((name, name, PRODUCT, cased))
    for name in _split(_CONCEPT):
        rows.append((name, name, CONCEPT, False))
    for name in _split(_CONCEPT_CASED):
        rows.append((name, name, CONCEPT, True))
    for alias, canonical in ALIASES.items():
        label = next((row[2] for row in rows if row[1] == canonical), TECH)
        rows.append((alias, canonical, label, False))
    known = {row[1] for row in rows}
    for vendor, names in _VENDOR_FORMS.items():
        for name in _split(names):
            if name in known:  # the maker's form of a name the gazetteer knows
                rows.append((f"{vendor} {name}", name, TECH, False))
    return rows


@functools.cache
def canonical_map() -> dict[str, tuple[str, str]]:
    """casefolded surface form -> (canonical name, label)."""
    return {form.casefold(): (canonical, label) for form, canonical, label, _ in entries()}
