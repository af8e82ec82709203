build-x/obj/src/codeobj/elf.o: src/codeobj/elf.c src/codeobj/elf.h \
 src/codeobj/codeobj.h src/codeobj/internal.h
src/codeobj/elf.h:
src/codeobj/codeobj.h:
src/codeobj/internal.h:
