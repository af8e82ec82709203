# complete.sh FILE WORD... - what bash completion offers for the command line
# WORD... (its last word being completed, as bash splits it: "--opt=v" is
# "--opt" "=" "v"), one candidate a line, with the completion file FILE
# loaded; run as `bash --norc complete.sh ...`. With HV_BASH_COMPLETION set,
# bash-completion is loaded first and FILE found by its loader (XDG_DATA_DIRS).
if [ -n "${HV_BASH_COMPLETION:-}" ]; then
    source "$HV_BASH_COMPLETION"
    shift
    _completion_loader "$1"
else
    source "$1"
    shift
fi
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
fn=$(complete -p "$1" 2>/dev/null | sed -n 's/.*-F \([^ ]*\).*/\1/p')
[ -n "$fn" ] || { echo "no completion for $1" >&2; exit 1; }
"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}"
