import {
  defaultAvatarsQueryOptions,
  ErrorMessage,
  profileDefaultsQueryOptions,
  profileQueryOptions,
  profileQuotaQueryOptions,
  recommendedNamesQueryOptions,
  reviewQueueQueryOptions,
  SubmitButton,
  useAccountClient,
  useAccountLanguage,
  useReviewPicture,
  useUpdateProfile,
  useUploadAvatar,
  useUploadPicture,
} from '@portico/account-react';
import {
  type AccountError,
  isAccountError,
  type ProfileData,
  type UploadedImage,
} from '@portico/account-sdk';
import { ErrorCode } from '@portico/account-sdk/protocol';
import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '../ui/button';
import { useAccountCentreT } from './account-centre.messages';
import { useDate } from './use-date';

type T = ReturnType<typeof useAccountCentreT>;

function Nudge({ t }: { t: T }) {
  const info = useQuery(profileDefaultsQueryOptions(useAccountClient()));
  const fields = info.data?.default_fields ?? [];
  if (fields.length === 0) return null;
  const names = fields.map((field) => t(`profile.nudge.${field as 'name' | 'avatar'}`));
  return (
    <p className="banner banner-info" role="note">
      {t('profile.nudge', { fields: names.join(t('profile.nudge.and')) })}
    </p>
  );
}

/** The avatar: the current one, an upload (with its progress), or one of the app's defaults. */
function Avatar({ t, profile }: { t: T; profile: ProfileData }) {
  const inputId = useId();
  const hintId = useId();
  const defaults = useQuery(defaultAvatarsQueryOptions(useAccountClient()));
  const upload = useUploadAvatar();
  const choose = useUpdateProfile();
  function picked(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) upload.mutate(file);
    event.target.value = '';
  }
  return (
    <section className="card" aria-labelledby="profile-avatar">
      <h2 id="profile-avatar">{t('profile.avatar')}</h2>
      <div className="profile-avatar">
        {profile.avatar_url ? (
          <img src={profile.avatar_url} alt={t('profile.avatar.current')} width={96} height={96} />
        ) : (
          <span className="avatar avatar-large" role="img" aria-label={t('profile.avatar.none')}>
            {(profile.name || '?').slice(0, 1).toUpperCase()}
          </span>
        )}
        <div>
          <label htmlFor={inputId} className="button button-secondary">
            {t('profile.avatar.choose')}
          </label>
          <input
            id={inputId}
            type="file"
            className="visually-hidden"
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-describedby={hintId}
            onChange={picked}
            disabled={upload.isPending}
          />
          <p id={hintId} className="muted">
            {t('profile.avatar.hint')}
          </p>
          {upload.isPending ? (
            <progress aria-label={t('profile.avatar.uploading')}>{t('profile.avatar.uploading')}</progress>
          ) : null}
          <p role="status" className="success">
            {upload.isSuccess ? t('profile.avatar.done') : ''}
          </p>
          <ErrorMessage error={upload.error ?? choose.error} />
        </div>
      </div>
      {defaults.data ? (
        <fieldset className="default-avatars">
          <legend>{t('profile.avatar.defaults')}</legend>
          {defaults.data.images.map((image, index) => (
            <button
              key={image.key}
              type="button"
              className="default-avatar"
              aria-pressed={profile.avatar_key === image.key}
              onClick={() => choose.mutate({ avatar_key: image.key })}
            >
              <img
                src={image.url}
                alt={t('profile.avatar.useDefault', { n: index + 1 })}
                width={40}
                height={40}
              />
            </button>
          ))}
        </fieldset>
      ) : null}
    </section>
  );
}

/** What the name's quota allows: changes left, or the date of the next one. */
function NameQuota({ t }: { t: T }) {
  const date = useDate();
  const quota = useQuery(profileQuotaQueryOptions(useAccountClient(), 'name'));
  if (!quota.data || quota.data.remain_times < 0) return null;
  const { remain_times, total_times, next_available_at } = quota.data;
  return (
    <span className="muted" data-testid="name-quota">
      {remain_times > 0
        ? t('profile.quota.leftOf', { n: remain_times, total: total_times })
        : t('profile.quota.next', { date: date(next_available_at) })}
    </span>
  );
}

function limitText(t: T, date: (ms: number) => string, error: unknown): string | null {
  if (!isAccountError(error) || error.error_code !== ErrorCode.updateLimitReached) return null;
  const next = Number((error as AccountError).data.next_available_at);
  return t('profile.quota.reached', { date: date(next) });
}

function Details({ t, profile }: { t: T; profile: ProfileData }) {
  const date = useDate();
  const ids = { name: useId(), description: useId(), birthday: useId(), gender: useId(), quota: useId() };
  const [name, setName] = useState(profile.name);
  const [description, setDescription] = useState(profile.description);
  const [birthday, setBirthday] = useState(profile.birthday);
  const [gender, setGender] = useState(profile.gender);
  useEffect(() => {
    setName(profile.name);
    setDescription(profile.description);
    setBirthday(profile.birthday);
    setGender(profile.gender);
  }, [profile]);
  const names = useQuery(recommendedNamesQueryOptions(useAccountClient(), useAccountLanguage()));
  const save = useUpdateProfile();
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ name, description, birthday, gender: gender as 0 | 1 | 2 | 3 });
  }
  const limit = limitText(t, date, save.error);
  return (
    <form className="card form" noValidate onSubmit={submit} aria-labelledby="profile-details">
      <h2 id="profile-details">{t('profile.form')}</h2>
      <div className="portico-field">
        <label htmlFor={ids.name}>{t('profile.name')}</label>
        <input
          id={ids.name}
          value={name}
          maxLength={20}
          autoComplete="nickname"
          aria-describedby={ids.quota}
          onChange={(e) => setName(e.target.value)}
        />
        <p id={ids.quota} className="portico-hint">
          {t('profile.name.hint')} · <NameQuota t={t} />
        </p>
        {names.data?.names.length ? (
          <p className="suggestions">
            {t('profile.name.suggest')}{' '}
            {names.data.names.map((suggestion) => (
              <Button
                variant="link"
                key={suggestion}
                aria-label={t('profile.name.use', { name: suggestion })}
                onClick={() => setName(suggestion)}
              >
                {suggestion}
              </Button>
            ))}
          </p>
        ) : null}
      </div>
      <div className="portico-field">
        <label htmlFor={ids.description}>{t('profile.description')}</label>
        <textarea
          id={ids.description}
          value={description}
          maxLength={200}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="portico-field">
        <label htmlFor={ids.birthday}>{t('profile.birthday')}</label>
        <input id={ids.birthday} type="date" value={birthday} onChange={(e) => setBirthday(e.target.value)} />
      </div>
      <div className="portico-field">
        <label htmlFor={ids.gender}>{t('profile.gender')}</label>
        <select id={ids.gender} value={gender} onChange={(e) => setGender(Number(e.target.value))}>
          {[0, 1, 2, 3].map((value) => (
            <option key={value} value={value}>
              {t(`profile.gender.${value as 0 | 1 | 2 | 3}`)}
            </option>
          ))}
        </select>
      </div>
      {limit ? (
        <p role="alert" className="portico-error">
          {limit}
        </p>
      ) : (
        <ErrorMessage error={save.error} />
      )}
      <p role="status" className="success">
        {save.isSuccess ? t('profile.saved') : ''}
      </p>
      <SubmitButton pending={save.isPending}>{t('profile.save')}</SubmitButton>
    </form>
  );
}

/** Pictures uploaded in this visit, with their review state. */
function Pictures({ t }: { t: T }) {
  const inputId = useId();
  const sensitiveId = useId();
  const [sensitive, setSensitive] = useState(false);
  const [pictures, setPictures] = useState<UploadedImage[]>([]);
  const upload = useUploadPicture();
  const add = (file: File) =>
    upload.mutate({ file, sensitive }, { onSuccess: (picture) => setPictures((list) => [picture, ...list]) });
  return (
    <section className="card" aria-labelledby="profile-pictures">
      <h2 id="profile-pictures">{t('profile.pictures')}</h2>
      <p className="muted">{t('profile.pictures.intro')}</p>
      <div className="portico-field portico-checkbox">
        <input
          id={sensitiveId}
          type="checkbox"
          checked={sensitive}
          onChange={(e) => setSensitive(e.target.checked)}
        />
        <label htmlFor={sensitiveId}>{t('profile.pictures.sensitive')}</label>
      </div>
      <label htmlFor={inputId} className="button button-secondary">
        {t('profile.pictures.choose')}
      </label>
      <input
        id={inputId}
        type="file"
        className="visually-hidden"
        accept="image/png,image/jpeg,image/webp,image/gif"
        disabled={upload.isPending}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) add(file);
          event.target.value = '';
        }}
      />
      {upload.isPending ? <progress aria-label={t('profile.avatar.uploading')} /> : null}
      <ErrorMessage error={upload.error} />
      <ul className="pictures">
        {pictures.map((picture) => (
          <li key={picture.key}>
            <img src={picture.url} alt={t('profile.pictures.alt')} width={96} />
            <span>{t(`profile.pictures.state.${picture.review_state}`)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** For an operator (OPERATOR_USER_IDS) only: the sensitive pictures waiting for review. */
function ReviewQueue({ t }: { t: T }) {
  const queue = useQuery(reviewQueueQueryOptions(useAccountClient()));
  const review = useReviewPicture();
  if (!queue.data) return null;
  return (
    <section className="card" aria-labelledby="profile-review">
      <h2 id="profile-review">{t('profile.review')}</h2>
      {queue.data.length === 0 ? <p>{t('profile.review.empty')}</p> : null}
      <ErrorMessage error={review.error} />
      <ul className="pictures">
        {queue.data.map((picture, index) => (
          <li key={picture.key}>
            <img src={picture.url} alt={t('profile.review.alt', { n: index + 1 })} width={120} />
            <Button variant="primary" onClick={() => review.mutate({ key: picture.key, approve: 1 })}>
              {t('profile.review.approve', { n: index + 1 })}
            </Button>
            <Button variant="secondary" onClick={() => review.mutate({ key: picture.key, approve: 0 })}>
              {t('profile.review.reject', { n: index + 1 })}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface ProfileScreenProps {
  /** Below the profile: the app's way to cancellation (a link to its cancellation page). */
  children?: ReactNode;
}

/**
 * The editable profile: the default-values nudge, the avatar (upload or a default), name with its
 * quota and suggestions, description, birthday and gender, pictures with their review state, and an
 * operator's review queue. The app brings the page frame and the link to cancellation (`children`).
 */
export function ProfileScreen({ children }: ProfileScreenProps) {
  const t = useAccountCentreT();
  const profile = useQuery(profileQueryOptions(useAccountClient()));
  return (
    <>
      <Nudge t={t} />
      {profile.isPending ? (
        <p aria-busy="true">{t('profile.title')}…</p>
      ) : profile.isError ? (
        <ErrorMessage error={profile.error} />
      ) : (
        <div className="workbench-grid">
          <Avatar t={t} profile={profile.data} />
          <Details t={t} profile={profile.data} />
          <Pictures t={t} />
          <ReviewQueue t={t} />
          {children}
        </div>
      )}
    </>
  );
}
