"""pytest plugin (entry point ``pytest11``): ``pytest --sokoban-impl TARGET``.

Thin shell until the conformance issue lands: it only registers the option.
"""


def pytest_addoption(parser):
    group = parser.getgroup("sokoban", "Sokoban conformance")
    group.addoption(
        "--sokoban-impl",
        action="store",
        default=None,
        metavar="TARGET",
        help="check TARGET (module:object, module, file.py or folder) against the spec",
    )
