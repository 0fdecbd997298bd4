/** Stylesheets imported for their effect (a screen's library styles); the app's bundler handles them. */
declare module '*.css';
