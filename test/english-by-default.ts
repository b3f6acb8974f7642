// Most tests read paybatch's English output; those of the Portuguese output set LC_ALL (or the locale setting)
// themselves. Without this, the machine's own LANG would choose (C.UTF-8 names no language: pt-BR).
process.env.LC_ALL = 'en_US.UTF-8';
