# Bash completion (deploy/bash-completion/hipvis): one file for the four
# tools, installed under the launcher's name with the others linked to it,
# since bash-completion loads a command's completion by the command's name.
# tests/install checks it completes each tool's --help options.
HV_COMPLETIONS_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions

.PHONY: install-bash-completion
install: install-bash-completion
install-bash-completion:
	install -d $(HV_COMPLETIONS_DIR)
	install -m 0644 deploy/bash-completion/hipvis $(HV_COMPLETIONS_DIR)/hipvis
	for t in hipvis-analyze hipvis-dump hipvis-sidecar; do ln -sfn hipvis $(HV_COMPLETIONS_DIR)/$$t; done
