build-x/obj/src/codeobj/unit.o: src/codeobj/unit.c src/codeobj/elf.h \
 src/codeobj/codeobj.h src/codeobj/internal.h
src/codeobj/elf.h:
src/codeobj/codeobj.h:
src/codeobj/internal.h:
