# tests/fleet: the fleet monitoring of deploy/ (docs/sidecar.md "Fleet
# monitoring"): promtool/amtool/systemd-analyze checks of the shipped files,
# then a real prometheus-node-exporter and a real Prometheus on loopback
# scraping a live hipvis-sidecar that drains the decode loop, until the
# finding counter and HipvisNewFindingGroup show up in Prometheus's API.
# Prerequisites are spelled out: the double's fragment is read after this one.
check-fleet: $(BUILD)/hipvis-sidecar $(BUILD)/libhipvis.so $(BUILD)/tests/double/libamdhip64.so \
             $(BUILD)/tests/apps/decode_loop
	bash tests/fleet/fleet.sh $(BUILD)

CHECKS += check-fleet
