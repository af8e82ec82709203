# tests/install: `make install` into a scratch DESTDIR: headers with their
# library, libhipvis.so stripped, an analyzer that starts without LLVM.

check-install: all $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop
	bash tests/install/install.sh $(BUILD)

CHECKS += check-install
