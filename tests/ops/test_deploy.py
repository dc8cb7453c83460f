"""The deployment kit in deploy/ says what the docs and the code say.

Container images cannot be built here (no image registry), so the Dockerfile is checked
against the README's install commands and the fonts the renderer looks for; compose.yaml is
parsed and its wiring checked; the systemd units go through ``systemd-analyze verify`` when
systemd is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from deploy_kit import DEPLOY, ROOT, UNITS, load_compose, parse_block_yaml

from render.fonts import FALLBACK_PACKAGES


def test_compose_starts_the_bots_once_postgresql_is_healthy() -> None:
    compose = load_compose()
    services = compose["services"]
    assert set(services) == {"postgres", "shard-0", "shard-1", "web"}
    check = services["postgres"]["healthcheck"]["test"]
    assert check[0] == "CMD-SHELL" and check[1].startswith("pg_isready ")
    shards = []
    for name in ("shard-0", "shard-1", "web"):
        service = services[name]
        assert service["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
        assert service["depends_on"]["postgres"] == {"condition": "service_healthy"}
        assert service["environment"]["CROSSPATH_DATABASE"].startswith("postgresql://")
        assert "@postgres:5432/" in service["environment"]["CROSSPATH_DATABASE"]
        if name.startswith("shard-"):
            env = service["environment"]
            assert env["CROSSPATH_SHARD_COUNT"] == "2"
            shards.append(env["CROSSPATH_SHARD_IDS"])
    assert sorted(shards) == ["0", "1"]  # every shard exactly once
    assert services["web"]["command"][:2] == ["crosspath", "web"]
    assert "pgdata" in compose["volumes"]


def test_the_block_yaml_reader_can_fail() -> None:
    with pytest.raises(AssertionError):
        parse_block_yaml("services:\n  a: 1\n  a: 2\n")
    with pytest.raises(AssertionError):
        parse_block_yaml("x: &anchor 1\n")
    assert parse_block_yaml("a:\n  - b\n  - 'c'\nd: [1, 2]\n") == {"a": ["b", "c"], "d": [1, 2]}


def readme_install() -> list[str]:
    """The commands of the README's quick start that set up and run the bot."""
    readme = (ROOT / "README.md").read_text()
    lines = readme.splitlines()
    line = next(line for line in lines if "pip install -e ." in line and "crosspath run" in line)
    return [command.strip() for command in line.split("&&")]


# Each step of the README's quick start, and what stands for it in the image.  A new step in
# the README fails the test until the Dockerfile follows (or this table says why it need not).
README_TO_IMAGE = {
    "python3 -m venv .venv": "python3 -m venv /srv/crosspath/.venv",
    ". .venv/bin/activate": "ENV PATH=/srv/crosspath/.venv/bin:$PATH",
    # a copy, not an editable install: the image runs what it was built with
    "pip install -e .": "/srv/crosspath/.venv/bin/pip install --no-cache-dir .",
    # settings come from the container's environment (compose's env_file), not a .env file
    "{ test -e .env || cp .env.example .env; }": None,
    "crosspath run": 'CMD ["crosspath", "run"]',
}


def test_the_dockerfile_installs_and_runs_as_the_readme_says() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    commands = readme_install()
    unknown = [command for command in commands if command not in README_TO_IMAGE]
    assert not unknown, f"README steps the Dockerfile does not follow yet: {unknown}"
    for command in commands:
        counterpart = README_TO_IMAGE[command]
        assert counterpart is None or counterpart in dockerfile, (command, counterpart)
    # every package the wheel includes is copied in
    pyproject = (ROOT / "pyproject.toml").read_text()
    include = re.search(r"include = \[(.*?)\]", pyproject)
    assert include is not None
    for package in re.findall(r'"(\w+)\*"', include.group(1)):
        assert f"COPY {package} {package}" in dockerfile, package
    assert re.search(r"^FROM python:3\.1[1-9]-slim", dockerfile, re.MULTILINE)


def test_the_image_has_the_fonts_runs_unprivileged_and_checks_readiness() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    apt = re.search(r"apt-get install[^\n]*\\\n\s*([^\n]*)", dockerfile)
    assert apt is not None
    assert tuple(apt.group(1).rstrip(" \\").split()) == FALLBACK_PACKAGES
    users = re.findall(r"^USER (\S+)", dockerfile, re.MULTILINE)
    assert users == ["crosspath"]
    healthcheck = dockerfile[dockerfile.index("HEALTHCHECK") :].split("\n\n")[0]
    assert "/readyz" in healthcheck and "CROSSPATH_WEB_PORT" in healthcheck
    # the health check's command is valid Python that names the port the image listens on
    command = json.loads(healthcheck[healthcheck.index("CMD") + 3 :].replace("\\\n", ""))
    compile(command[2], "HEALTHCHECK", "exec")
    assert "CROSSPATH_WEB_PORT=8080" in dockerfile and "EXPOSE 8080" in dockerfile


def unit_text(name: str) -> str:
    return (UNITS / name).read_text()


def test_the_bot_units_stop_their_whole_control_group() -> None:
    for name in ("crosspath.service", "crosspath@.service", "crosspath-web.service"):
        text = unit_text(name)
        assert "KillMode=control-group" in text, name
        assert re.search(r"^ExecStart=/srv/crosspath/\.venv/bin/crosspath ", text, re.MULTILINE)
    assert "CROSSPATH_SHARD_IDS=%I" in unit_text("crosspath@.service")
    assert "postgresql://" in unit_text("crosspath@.service")
    assert "crosspath db backup" in unit_text("crosspath-backup.service")
    assert "OnCalendar=" in unit_text("crosspath-backup.timer")


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here"
)
def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    """The units as installed, with the venv's path pointed at this checkout's ``crosspath``
    (verify insists that the command exists).  It exits 0 even on unknown keys, so any
    output at all fails the test."""
    here = Path(sys.executable).parent / "crosspath"
    if not here.exists():
        pytest.skip(f"no crosspath script at {here} to stand in for the installed one")
    for unit in UNITS.iterdir():
        text = unit.read_text().replace("/srv/crosspath/.venv/bin/crosspath", str(here))
        (tmp_path / unit.name).write_text(text)
    names = [
        "crosspath.service",
        "crosspath@0.service",
        "crosspath-web.service",
        "crosspath-backup.service",
        "crosspath-backup.timer",
    ]
    done = subprocess.run(
        ["systemd-analyze", "verify", *(f"./{name}" for name in names)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), (
        done.stdout + done.stderr
    )


def test_compose_keeps_the_web_replay_cache_on_a_volume_the_image_owns() -> None:
    """The web container's replay GIFs survive its re-creation: CROSSPATH_CACHE_DIR is a named
    volume, and the image makes that folder for its own user (the cache refuses a folder
    another user owns)."""
    compose = load_compose()
    web = compose["services"]["web"]
    cache = web["environment"]["CROSSPATH_CACHE_DIR"]
    assert f"replays:{cache}" in web["volumes"]
    assert "replays" in compose["volumes"]
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert cache in dockerfile and f"chown crosspath:crosspath /data {cache}" in dockerfile
