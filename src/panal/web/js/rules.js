// A game's rule options in words (the options of panal.hive.OPTION_SPECS, listed by
// GET /api/config `rule_options`; docs/rules.md explains each): the game page and the archive
// show the ones where a game differs from panal's reading, so players know what they play.

import { hasKey, t } from "./i18n.js";

/** The options of `values` ({name: value}) that differ from their defaults, in config order. */
export function changedRules(config, values) {
  const changed = {};
  for (const option of config?.rule_options || []) {
    if (values && option.name in values && values[option.name] !== option.default) changed[option.name] = values[option.name];
  }
  return changed;
}

/** Each changed option as a line of text: "Dragonfly carries the piece beneath it: only on the next turn". */
export function ruleTexts(changed) {
  return Object.entries(changed || {}).map(([name, value]) => {
    const label = `option.${name}`;
    if (value === true) return t(label);
    if (value === false) return hasKey("en", `${label}.off`) ? t(`${label}.off`) : `${t(label)}: ${t("game.no")}`;
    return `${t(label)}: ${t(`${label}.${value}`)}`;
  });
}
