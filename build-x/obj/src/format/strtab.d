build-x/obj/src/format/strtab.o: src/format/strtab.c src/format/strtab.h
src/format/strtab.h:
