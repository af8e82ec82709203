build-x/obj/src/preload/selftime.o: src/preload/selftime.c
