export { LanguageSelector } from './components/language-selector';
export { languageOptions, languageOption, type LanguageOption } from './lib/languages';
