# tests/setup: the set-up step of `make demo` and `make check` (.ci/run
# --deps), on stub dpkg-query / apt-get / id, and as a real unprivileged user.
check-setup:
	bash tests/setup/setup.sh

CHECKS += check-setup
